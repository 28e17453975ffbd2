#!/bin/sh
# Which training threads run in each millisecond of a two-thread `oxo bench train`: a
# profile (perf record, cpu-clock at 1999 Hz) and, from its last SECONDS seconds (the
# two-thread training phase), one character a millisecond: B both replicas, 8 or 9 one of
# them (the two busiest threads), t another thread of the process alone, . none. Prints the
# share of each and the first 6 seconds of the timeline, 150 ms a line.
# Usage: timeline.sh OXO OUT [SECONDS]
set -eu
OXO=$1
OUT=$2
SECONDS_CUT=${3:-6}
mkdir -p "$OUT"
perf record -F 1999 -g -o "$OUT/perf.data" -- "$OXO" bench train --variant ultimate \
  --model models/ultimate/model.bpk --threads 1,2 --seconds 8 > "$OUT/bench.txt"
perf script -i "$OUT/perf.data" -F tid,time 2>/dev/null | tr -d ':' > "$OUT/samples.txt"
awk -v cut="$SECONDS_CUT" '
  { tid[NR] = $1; t[NR] = $2; if ($2 > end) end = $2 }
  END {
    start = end - cut
    for (i = 1; i <= NR; i++) if (t[i] >= start) busy[tid[i]]++
    for (k in busy) if (busy[k] > first) { second = first; b = a; first = busy[k]; a = k }
                    else if (busy[k] > second) { second = busy[k]; b = k }
    for (i = 1; i <= NR; i++) if (t[i] >= start) {
      ms = int((t[i] - start) * 1000)
      if (tid[i] == a) x[ms] = 1; else if (tid[i] == b) y[ms] = 1; else z[ms] = 1
    }
    line = ""
    for (ms = 0; ms < cut * 1000; ms++) {
      c = "."
      if (x[ms] && y[ms]) c = "B"; else if (x[ms]) c = "8"; else if (y[ms]) c = "9"; else if (z[ms]) c = "t"
      n[c]++
      line = line c
      if (ms % 150 == 149) { if (ms < 6000) print line; line = "" }
    }
    for (c in n) printf "%s %.1f%%\n", c, 100 * n[c] / (cut * 1000)
  }' "$OUT/samples.txt"
