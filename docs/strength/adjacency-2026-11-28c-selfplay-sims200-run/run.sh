#!/bin/bash
# adjacency, 2026-11-28: the shipped model's weights trained on with self-play that searches
# about three times deeper (config.toml: configs/adjacency.toml with selfplay.simulations_full
# 200 and simulations_fast 32 instead of 64 and 16, and learning_rate 0.0005 for a warm start),
# 85 minutes on 2 cores, then matched. Run from the repository root with OXO a release build
# and ORT_DYLIB_PATH set to onnxruntime's library:
#   OXO=target/release/oxo docs/strength/adjacency-2026-11-28c-selfplay-sims200-run/run.sh RUNDIR OUTDIR
# The result files name the net by a copy, /work/exp/s24/s200-best.bpk (RUNDIR's
# models/best.bpk at the end of the run, generation 56).
set -eu
run=$1; out=$2; mkdir -p "$out"
here=$(dirname "$0")
"$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" \
  --init models/adjacency/model.bpk --minutes 85
shipped=net:path=models/adjacency/model.bpk
new=net:path=$run/models/best.bpk
# At a fixed budget first (1,000 PUCT simulations a move with the recorded value, so the
# results do not depend on the machine's load; one match per core, at once): against
# alphabeta:depth=3 on the openings of
# docs/strength/adjacency-2026-11-27b-sims1000-value-screens/base-seed*-20.json, then 10
# paired games against the shipped model on each of two seeds.
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
# Then at the default search (400 ms a move), one match per core, at once: the first 40
# openings against alphabeta:ms=100 (where the shipped model went 32-3-5), and 20 paired
# games against the shipped model.
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
