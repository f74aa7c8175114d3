#!/bin/sh
# Samples `ss -ti` of the edge's client-facing TCP connections (source 10.77.1.1) every 100 ms
# while the next testbed exists, with a wall-clock timestamp line ("T <epoch s>") before each
# sample: start it, then `npm run experiment -- …` (one run). Join with the run afterwards:
# npx tsx packages/netlab/scripts/ssBySegment.ts OUT results/RUN.json. Run as root.
out=${1:?usage: sampleEdgeSs.sh OUTFILE}
while ! ip netns list | grep -q -- '^ethle-.*-edge'; do sleep 0.2; done
ns=$(ip netns list | grep -- '^ethle-.*-edge' | head -1 | cut -d' ' -f1)
echo "ns $ns" > "$out"
while ip netns list | grep -q "^$ns"; do
  echo "T $(date +%s.%N)" >> "$out"
  ip netns exec "$ns" ss -tinH state established src 10.77.1.1 >> "$out" 2>/dev/null
  sleep 0.1
done
