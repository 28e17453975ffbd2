#!/bin/sh
# The probes of two-thread training on this 2-core machine (docs/performance.md, "Where the
# second thread's time goes"), as they were run, nothing else running; records in probes/.
# Usage (from the repository root): probes.sh OXO OUT
set -eu
OXO=$1
OUT=$2
mkdir -p "$OUT"
B="$OXO bench train --model models/ultimate/model.bpk --variant ultimate"

# One and two threads, both nets, two rounds (med-*.json).
for r in 1 2; do
  for v in ultimate extreme; do
    "$OXO" bench train --variant $v --model models/$v/model.bpk --threads 1,2 --seconds 5 --json > "$OUT/med-$v-$r.json"
  done
done

# One-thread trainings alone on each core, then two at once, one a core (solo*, pair*).
for r in 1 2; do
  taskset -c 0 $B --threads 1 --seconds 6 --json > "$OUT/solo0-$r.json"
  taskset -c 1 $B --threads 1 --seconds 6 --json > "$OUT/solo1-$r.json"
  taskset -c 0 $B --threads 1 --seconds 6 --json > "$OUT/pair0-$r.json" &
  taskset -c 1 $B --threads 1 --seconds 6 --json > "$OUT/pair1-$r.json"
  wait
  sleep 2
done

# Two threads, then two threads with the replicas' threads (the process's two newest, the
# last made) pinned one a core once training starts, 22.5 s in (unpinned*, pinned*).
for r in 1 2; do
  $B --threads 2 --seconds 10 --json > "$OUT/unpinned-$r.json"
  $B --threads 2 --seconds 10 --json > "$OUT/pinned-$r.json" &
  sleep 22.5
  set -- $(ps -L -o tid= -p $! | sort -n -r | head -2)
  taskset -p -c 0 "$1" > /dev/null
  taskset -p -c 1 "$2" > /dev/null
  wait
done

# One and two threads without, then with, a SCHED_IDLE spinner on each core (nospin*, spin*).
for r in 1 2; do
  $B --threads 1,2 --seconds 5 --json > "$OUT/nospin-$r.json"
  taskset -c 0 chrt -i 0 sh -c 'while :; do :; done' & s0=$!
  taskset -c 1 chrt -i 0 sh -c 'while :; do :; done' & s1=$!
  sleep 0.5
  $B --threads 1,2 --seconds 5 --json > "$OUT/spin-$r.json"
  kill "$s0" "$s1"
done
