#!/bin/bash
# adjacency, 2026-11-27: the shipped model's weights trained on with self-play that searches
# with the play-time value's random playouts (config.toml: configs/adjacency.toml with
# selfplay.rollouts = 16, rollout_weight = 0.75, and learning_rate 0.0005 for a warm start),
# 78 minutes on 2 cores, then matched at the default search. Run from the repository root
# with OXO a release build and ORT_DYLIB_PATH set to onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-27c-selfplay-playouts-run/run.sh RUNDIR OUTDIR
# The result files name the nets by copies: /work/exp/s17/adj-r16-gen110.bpk (RUNDIR's
# models/best.bpk, generation 110) and /work/exp/s17/adj-shipped.bpk (models/adjacency/model.bpk).
set -eu
run=$1; out=$2; mkdir -p "$out"
here=$(dirname "$0")
"$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" \
  --init models/adjacency/model.bpk --minutes 78
value=score=1,rollouts=16,mix=0.75
new=net:path=$run/models/best.bpk,search=puct,ms=400,$value
shipped=net:path=models/adjacency/model.bpk,search=puct,ms=400,$value
# One match per core, at once.
taskset -c 0 "$OXO" arena --variant adjacency --agents "alphabeta:ms=100,$new" --games 40 \
  --threads 1 --out "$out/new110-ab100-40" &
taskset -c 1 "$OXO" arena --variant adjacency --agents "$shipped,$new" --games 20 \
  --threads 1 --out "$out/new110-vs-shipped-20" &
wait
taskset -c 1 "$OXO" arena --variant adjacency \
  --agents "alphabeta:ms=500,net:path=$run/models/best.bpk,search=puct,ms=500,$value" \
  --games 20 --threads 1 --out "$out/new110-ab500-s1-20"
