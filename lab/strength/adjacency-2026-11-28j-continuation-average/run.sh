#!/bin/bash
# adjacency, 2026-11-28: weight averaging of a continuation, aimed at O's play. The one
# change whose mean margin as O rose (+2.2 points a game against alphabeta:ms=100 on 20
# games as O, where the shipped model made +0.65: lab/strength/adjacency-2026-11-27i-weight-averaging/)
# was the mean of generations 81-110 of the shipped net trained on with playouts in
# self-play; that net was gone, so the recipe runs again and is measured where the goals are
# missed. Stages, from the repository root with OXO a release build and ORT_DYLIB_PATH set
# to onnxruntime's library:
#   train RUNDIR:  the continuation (config.toml: lab/strength/adjacency-2026-11-27c-selfplay-playouts-run/'s), 78 minutes on 2 cores
#   average RUNDIR NET:  NET = the mean of the last 30 generations, 71-100 (the 78 minutes
#     made 100 generations this time, 110 before)
#   match NET OUTDIR:  one match per core, nothing else running: at equal time against
#     alphabeta:ms=500, seeds 1-5 (100 paired games, the shipped model's 71.5% openings),
#     and the default setting against alphabeta:ms=100 on the first 40 openings of the
#     shipped model's 100 games
#   seed2 NET OUTDIR:  then the default setting against alphabeta:ms=100 on the shipped model's
#     other 40 openings (--seed 2), one match on both cores (--threads 2), nothing else running
#   seeds34 NET OUTDIR:  (added later) the default setting against alphabeta:ms=100 on the 48
#     openings of --seed 3 and 4 that the shipped model played in
#     lab/strength/adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves/, one match per core
# The result files name the net by its copy /work/exp/s28/avg-71-100.bpk, the same bytes as
# average-gen71-100.bpk here (models.sha256).
set -eu
here=$(dirname "$0")
case $1 in
train)
  "$here/../../screen.sh" train "$here/config.toml" "$2" 78 ;;
average)
  "$OXO" average --out "$3" $(seq -f "$2/models/gen-%05g.bpk" 71 100) ;;
match)
  net=$2; out=$3; mkdir -p "$out"
  value=score=1,rollouts=16,mix=0.75
  at500="alphabeta:ms=500,net:path=$net,search=puct,ms=500,$value"
  {
    for seed in 1 2 3; do
      taskset -c 0 "$OXO" arena --variant adjacency --agents "$at500" --games 20 --threads 1 \
        --seed $seed --out "$out/ab500-seed$seed-20"
    done
  } &
  {
    for seed in 4 5; do
      taskset -c 1 "$OXO" arena --variant adjacency --agents "$at500" --games 20 --threads 1 \
        --seed $seed --out "$out/ab500-seed$seed-20"
    done
    taskset -c 1 "$OXO" arena --variant adjacency \
      --agents "alphabeta:ms=100,net:path=$net,search=puct,ms=400,$value" --games 40 \
      --threads 1 --out "$out/ab100-40"
  } &
  wait ;;
seed2)
  "$OXO" arena --variant adjacency \
    --agents "alphabeta:ms=100,net:path=$2,search=puct,ms=400,score=1,rollouts=16,mix=0.75" \
    --games 40 --seed 2 --threads 2 --out "$3/ab100-40-seed2" ;;
seeds34)
  for core in 0 1; do
    seed=$((core + 3))
    taskset -c "$core" "$OXO" arena --variant adjacency \
      --agents "alphabeta:ms=100,net:path=$2,search=puct,ms=400,score=1,rollouts=16,mix=0.75" \
      --games 24 --threads 1 --seed "$seed" --out "$3/ab100-seed$seed-24" &
  done
  wait ;;
*)
  echo "usage: $0 train RUNDIR | average RUNDIR NET | match NET OUTDIR | seed2 NET OUTDIR | seeds34 NET OUTDIR" >&2
  exit 2 ;;
esac
