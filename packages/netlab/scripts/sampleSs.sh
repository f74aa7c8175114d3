#!/bin/sh
# Samples `ss -ti` of one sender's TCP connections every 100 ms while the next testbed exists, with
# a wall-clock timestamp line ("T <epoch s>") before each sample: start it, then
# `npm run experiment -- …` (one run). HOST is the sender: `edge` (default; its client-facing
# connections, source 10.77.1.1) or `origin` (its HTTP port 8081: the E2E flows, or the edge's
# fetches). Join with the run afterwards: npx tsx packages/netlab/scripts/ssBySegment.ts OUT
# results/RUN.json. Run as root.
out=${1:?usage: sampleSs.sh OUTFILE [edge|origin]}
host=${2:-edge}
case "$host" in
  edge) filter="src 10.77.1.1" ;;
  origin) filter="sport = :8081" ;;
  *) echo "sampleSs.sh: HOST is edge or origin, not $host" >&2; exit 2 ;;
esac
while ! ip netns list | grep -q -- "^ethle-.*-$host"; do sleep 0.2; done
ns=$(ip netns list | grep -- "^ethle-.*-$host" | head -1 | cut -d' ' -f1)
echo "ns $ns" > "$out"
while ip netns list | grep -q "^$ns"; do
  echo "T $(date +%s.%N)" >> "$out"
  # shellcheck disable=SC2086 # the filter is several words on purpose
  ip netns exec "$ns" ss -tinH state established $filter >> "$out" 2>/dev/null
  sleep 0.1
done
