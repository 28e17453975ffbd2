#!/bin/bash
# adjacency, 2026-11-28: the shipped 4x32 net grown to 6x32 (`oxo grow --blocks 6`, the two
# new blocks silent), trained on with configs/adjacency.toml's recipe (config.toml: the same
# with net.blocks = 6) on the 16 cores of a lent GPU machine (an Intel Xeon; the GPU unused),
# 8 minutes and then 3.5 more (the same command resumed), then matched here on 2 cores.
# The commands, from the repository root, OXO a release build, ORT_DYLIB_PATH set:
set -eu
here=$(dirname "$0"); run=${1:-/tmp/adj-grown6}; out=${2:-$here}
"$OXO" grow --blocks 6 --out grown.bpk models/adjacency/model.bpk
"$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" --init grown.bpk --minutes 8
"$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" --minutes 3.5
# Matched at a fixed budget (1,000 PUCT simulations a move with the shipped model's recorded
# value), one match per core: against alphabeta:depth=3 on the openings of
# docs/strength/adjacency-2026-11-27b-sims1000-value-screens/base-seed*-20.json (where the
# shipped model went 35-1-4), then 10 paired games against the shipped model on each of
# two seeds. The result files name the net as /work/runs/adj-grown6/models/best.bpk
# (generation 38; sha256 in models.sha256).
new=net:path=$run/models/best.bpk
shipped=net:path=models/adjacency/model.bpk
fixed=search=puct,sims=1000,score=1,rollouts=16,mix=0.75
for seed in 1 2; do
  taskset -c $((seed - 1)) "$OXO" arena --variant adjacency --agents "alphabeta:depth=3,$new,$fixed" \
    --games 20 --threads 1 --seed "$seed" --out "$out/sims1000-seed$seed-20" &
done
wait
for seed in 1 2; do
  taskset -c $((seed - 1)) "$OXO" arena --variant adjacency \
    --agents "$shipped,$fixed,$new,$fixed" --games 10 --threads 1 --seed "$seed" \
    --out "$out/h2h-sims1000-seed$seed-10" &
done
wait
# At the default search (400 ms a move), one match per core, nothing else running.
timed=search=puct,ms=400,score=1,rollouts=16,mix=0.75
taskset -c 0 "$OXO" arena --variant adjacency --agents "alphabeta:ms=100,$new,$timed" --games 40 \
  --threads 1 --out "$out/new-ab100-40" &
taskset -c 1 "$OXO" arena --variant adjacency --agents "$shipped,$timed,$new,$timed" --games 20 \
  --threads 1 --out "$out/new-vs-shipped-20" &
wait
scripts/arena_tally.py --agent 1 --summary "$out/summary.json" \
  "alphabeta:depth=3, 1,000 simulations" "$out/sims1000-seed*-20.json" \
  "against the shipped model, 1,000 simulations" "$out/h2h-sims1000-seed*-10.json" \
  "alphabeta:ms=100, 400 ms" "$out/new-ab100-40.json" \
  "against the shipped model, 400 ms" "$out/new-vs-shipped-20.json"
