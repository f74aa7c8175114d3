import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Testbed } from '@ethle/netlab';
import type { RunResult } from '@ethle/player-demo';

const VPLAYER_BIN = join(fileURLToPath(new URL('../../', import.meta.url)), 'packages/virtual-player/bin/ethle-vplayer.js');

/** One virtual receiver's outcome: its run, or why it never played. */
export type VirtualOutcome = { receiver: number; run: RunResult } | { receiver: number; error: string };

/**
 * Plays `src` with one virtual receiver per client address, all in one Node process in the
 * testbed's client namespace (the `ethle-vplayer` CLI, so its sockets are the namespace's), each
 * joining at its offset and playing `durationS` from then. Resolves when the process has printed
 * every receiver's line.
 */
export async function playVirtualInTestbed(
  tb: Testbed,
  o: {
    src: string;
    player: 'hls' | 'dash';
    durationS: number;
    scheme: string;
    id: string;
    addresses: string[];
    offsetsMs: number[];
    maxBufferLengthS?: number;
  },
): Promise<VirtualOutcome[]> {
  const args = [VPLAYER_BIN, '--url', o.src, '--player', o.player, '--seconds', String(o.durationS), '--scheme', o.scheme, '--id', o.id];
  args.push('--local-address', o.addresses.join(','), '--start-offsets-ms', o.offsetsMs.join(','));
  if (o.maxBufferLengthS !== undefined) args.push('--max-buffer-length', String(o.maxBufferLengthS));
  // The receiver's append gap (VirtualPlayerConfig.appendMs); unset: its default. 0 is what the
  // BBR paper matrix's virtual runs modelled (no wait), for a series that must stay comparable.
  if (process.env.EXP_VPLAYER_APPEND_MS) args.push('--append-ms', process.env.EXP_VPLAYER_APPEND_MS);
  const p = tb.spawn('client', process.execPath, args);
  let out = '';
  let err = '';
  p.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  p.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
  // Bounded: the receivers play durationS after their last join; a hung process is killed.
  const limitMs = (o.durationS + Math.max(0, ...o.offsetsMs) / 1000 + 60) * 1000;
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => p.kill('SIGKILL'), limitMs);
    p.once('exit', (c) => (clearTimeout(timer), resolve(c)));
  });
  if (code !== 0) throw new Error(`virtual receivers exited with ${code}: ${err.trim()}`);
  const lines = out.trim().split('\n').filter(Boolean);
  // One address: the CLI prints the run itself; several: one {"receiver", "run"|"error"} per line.
  if (o.addresses.length === 1) return [{ receiver: 0, run: JSON.parse(lines[0]!) as RunResult }];
  return lines.map((l) => JSON.parse(l) as VirtualOutcome);
}
