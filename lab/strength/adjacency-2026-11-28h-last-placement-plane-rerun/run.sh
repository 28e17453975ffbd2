#!/bin/bash
# adjacency, 2026-11-28: the last-placement plane again (13 input planes; the encoder of
# lab/strength/adjacency-2026-11-28e-last-placement-plane/, not merged and described in
# docs/experiments.md, "xando and adjacency", item "An input plane for who makes the last
# placement"), its run redone because the first one's net was gone: the shipped net grown to read the
# plane (`oxo grow`) and trained on with the same config (config.toml) on 2 cores for 55
# minutes, then matched at the settings of the strength goals. Two workers, one per core
# (taskset), take the matches in the order of the list below (a match is claimed by mkdir),
# nothing else running. From the repository root, OXO a release build with the 13-plane
# encoder, ORT_DYLIB_PATH set:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-28h-last-placement-plane-rerun/run.sh train RUN OUT
# then the same with `match` instead of `train`.
set -u
here=$(dirname "$0"); stage=$1; run=$2; out=$3; mkdir -p "$out"
if [ "$stage" = train ]; then
  "$OXO" grow --out "$out/shipped-13planes.bpk" models/adjacency/model.bpk
  "$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" \
    --init "$out/shipped-13planes.bpk" --minutes 55
  exit
fi
new=net:path=$run/models/best.bpk
# Against alphabeta:ms=500 at equal time (the openings and colours of
# lab/strength/adjacency-2026-11-27-ms500-playouts075-equal-time/, seeds 1 to 3), and the
# default agent against alphabeta:ms=100 on the first 40 openings (those of
# lab/strength/adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-60games.json).
# (The queue first went on with seeds 4 and 5 and two matches against uct:ms=500; it was
# cut after these three, the first two having shown no gain in score.)
jobs="ab500-seed1-20 alphabeta:ms=500 500 1 20
ab500-seed2-20 alphabeta:ms=500 500 2 20
ab100-40 alphabeta:ms=100 400 1 40
ab500-seed3-20 alphabeta:ms=500 500 3 20"
worker() {
  local core=$1
  while read -r name opp ms seed games; do
    mkdir "$out/$name.claim" 2>/dev/null || continue
    taskset -c "$core" "$OXO" arena --variant adjacency \
      --agents "$opp,$new,search=puct,ms=$ms,score=1,rollouts=16,mix=0.75" --games "$games" \
      --threads 1 --seed "$seed" --out "$out/$name" > "$out/$name.log" 2>&1
  done <<< "$jobs"
}
worker 0 & worker 1 & wait
scripts/arena_tally.py --summary "$out/summary.json" \
  "alphabeta:ms=500, 500 ms" "$out/ab500-seed*-20.json" \
  "alphabeta:ms=100, 400 ms" "$out/ab100-40.json"
