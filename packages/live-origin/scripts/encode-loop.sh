#!/usr/bin/env bash
# Encodes the short loop the live origin repeats forever (run once; its output is committed).
# Low resolution and bitrate on purpose: the origin pads every segment to the paper's 4K CBR sizes
# with bytes players skip, so the network carries 4K bytes while this 2-core machine decodes 180p.
#
# 40 s loop: a multiple of the 2, 4 and 10 s segment lengths, and exactly 1875 AAC frames at 48 kHz
# (1024 samples each), so audio and video both loop with continuous timestamps.
# Key frame exactly every 2 s (50 frames at 25 fps), no scene-cut key frames.
#
# Outputs (media/): one 2 s chunk per file, cut at the key frames:
#   av/   muxed H.264+AAC fMP4 (HLS fMP4)      ts/  muxed MPEG-TS (HLS TS)
#   v/    video-only fMP4 (DASH video)          a/   audio-only fMP4 (DASH audio)
set -euo pipefail
cd "$(dirname "$0")/../media"
rm -rf av ts v a && mkdir -p av ts v a

SRC=(-f lavfi -i "testsrc2=size=320x180:rate=25:duration=40"
     -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=40")
VIDEO=(-c:v libx264 -profile:v main -level 3.0 -pix_fmt yuv420p -preset veryslow -b:v 90k -maxrate 120k -bufsize 240k
       -g 50 -keyint_min 50 -sc_threshold 0 -force_key_frames "expr:gte(t,n_forced*2)" -bf 0)
AUDIO=(-c:a aac -b:a 32k -ac 1 -ar 48000 -frames:a 1875)
HLS=(-f hls -hls_time 2 -hls_playlist_type vod -hls_list_size 0 -hls_flags independent_segments)

ffmpeg -hide_banner -loglevel error -y "${SRC[@]}" -map 0:v -map 1:a "${VIDEO[@]}" "${AUDIO[@]}" \
  "${HLS[@]}" -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 -hls_segment_filename 'av/%02d.m4s' av/index.m3u8
ffmpeg -hide_banner -loglevel error -y "${SRC[@]}" -map 0:v -map 1:a "${VIDEO[@]}" "${AUDIO[@]}" \
  "${HLS[@]}" -hls_segment_type mpegts -hls_segment_filename 'ts/%02d.ts' ts/index.m3u8
ffmpeg -hide_banner -loglevel error -y "${SRC[@]}" -map 0:v "${VIDEO[@]}" \
  "${HLS[@]}" -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 -hls_segment_filename 'v/%02d.m4s' v/index.m3u8
ffmpeg -hide_banner -loglevel error -y "${SRC[@]}" -map 1:a "${AUDIO[@]}" \
  "${HLS[@]}" -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 -hls_segment_filename 'a/%02d.m4s' a/index.m3u8
# The origin writes its own playlists; keep only the media.
rm -f av/index.m3u8 ts/index.m3u8 v/index.m3u8 a/index.m3u8
du -sh . av ts v a
