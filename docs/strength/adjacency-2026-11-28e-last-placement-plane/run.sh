#!/bin/bash
# adjacency, 2026-11-28: a 13th input plane, "the mover makes the last placement" (the empty
# cells other than T squares are odd in number), added to adjacency's encoding; the shipped
# net grown to read it (`oxo grow`: the plane's stem weights start at zero, so the grown net
# answers as the shipped one) and trained on with configs/adjacency.toml (config.toml) on
# 2 cores for 51 minutes (stopped by kill -9 during generation 78's self-play; 77
# generations), then matched. Not shipped, so main's encoding has 12 planes: apply
# last-placement-plane.patch (`git apply`, the encoder and scripts/oxo_onnx.py's port) and
# build, then from the repository root, OXO that release build, ORT_DYLIB_PATH set:
#   OXO=target/release/oxo docs/strength/adjacency-2026-11-28e-last-placement-plane/run.sh RUN OUT
# The probe (last_placement_probe.py) ran first, on the 12-plane shipped model and port
# (commit 83f29cd): probe-shipped-12planes.txt; then on generation 18 of this run:
# probe-gen18.txt. The result files name the nets by /work/runs/adj-parity/models/best.bpk
# (generation 77) and /work/exp/s25/parity/shipped-13planes.bpk (the shipped net grown to
# 13 planes, which plays as the shipped model: both sha256 in models.sha256).
set -eu
here=$(dirname "$0"); run=$1; out=$2; mkdir -p "$out"
"$OXO" grow --out "$out/shipped-13planes.bpk" models/adjacency/model.bpk
"$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" \
  --init "$out/shipped-13planes.bpk" --minutes 70
new=net:path=$run/models/best.bpk
shipped=net:path=$out/shipped-13planes.bpk
# At the default search (400 ms a move), one match per core, at once, nothing else running:
# the first 40 openings against alphabeta:ms=100 (where the shipped model went 32-3-5), and
# 20 paired games against the shipped model.
timed=search=puct,ms=400,score=1,rollouts=16,mix=0.75
taskset -c 0 "$OXO" arena --variant adjacency --agents "alphabeta:ms=100,$new,$timed" --games 40 \
  --threads 1 --out "$out/new-ab100-40" &
taskset -c 1 "$OXO" arena --variant adjacency --agents "$shipped,$timed,$new,$timed" --games 20 \
  --threads 1 --out "$out/new-vs-shipped-20" &
wait
# At a fixed budget (1,000 PUCT simulations a move, so the results do not depend on the
# machine's load), one match per core: against alphabeta:depth=3 on the openings of
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
scripts/arena_tally.py --agent 1 --summary "$out/summary.json" \
  "alphabeta:ms=100, 400 ms" "$out/new-ab100-40.json" \
  "against the shipped model, 400 ms" "$out/new-vs-shipped-20.json" \
  "alphabeta:depth=3, 1,000 simulations" "$out/sims1000-seed*-20.json" \
  "against the shipped model, 1,000 simulations" "$out/h2h-sims1000-seed*-10.json"
