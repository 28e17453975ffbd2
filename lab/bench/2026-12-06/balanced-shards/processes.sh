#!/bin/sh
# Where two threads' rate goes, ultimate's net on this 2-core machine, nothing else running:
# one-thread trainings alone and two at once in separate processes (one a core), at batch
# 128 and 64 (a replica's half of 128); then one and two threads in one process at batch
# 128 and 256. Prints each process's samples/s (mean, median step, rounds); processes.txt
# is what it printed.
# Usage (from the repository root): processes.sh OXO
set -eu
OXO=$1
rate() {
  python3 -c "import json,sys
for r in json.load(sys.stdin)['report']['rates']:
    print(r['threads'], 'threads:', round(r['samples_per_sec']), round(r['median_samples_per_sec']), [round(x) for x in r['round_samples_per_sec']], 'speed-up', round(r['speedup'], 2))"
}
for batch in 128 64; do
  B="$OXO bench train --variant ultimate --model models/ultimate/model.bpk --threads 1 --seconds 3 --rounds 3 --batch $batch --json"
  echo "batch $batch, alone on core 0"; taskset -c 0 $B | rate
  [ "$batch" = 64 ] || { echo "batch $batch, alone on core 1"; taskset -c 1 $B | rate; }
  echo "batch $batch, two processes at once, one a core"
  (taskset -c 0 $B | rate) & (taskset -c 1 $B | rate); wait
done
for batch in 128 256; do
  echo "batch $batch, one process, one then two threads a round"
  $OXO bench train --variant ultimate --model models/ultimate/model.bpk --threads 1,2 \
    --seconds 3 --rounds 4 --batch "$batch" --json | rate
done
