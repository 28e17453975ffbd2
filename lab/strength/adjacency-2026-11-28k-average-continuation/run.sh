#!/bin/bash
# adjacency, 2026-11-28: the averaged net of
# lab/strength/adjacency-2026-11-28j-continuation-average/ (the mean of generations 71-100
# of the shipped net trained on with playouts in self-play; 76.5% against alphabeta:ms=500)
# trained on at half that run's learning rate, then averaged again: the rest of the 6
# CPU-hours a shipped model may cost (4.28 spent by the chain it starts from). Stages, from
# the repository root with OXO a release build and ORT_DYLIB_PATH set to onnxruntime's
# library; INIT is that averaged net inside its own run directory
# (R/models/average-71-100.bpk, so the new run's provenance records the chain and its cost):
#   train INIT RUNDIR:  48 minutes on 2 cores
#   average RUNDIR FIRST LAST NET:  NET = the mean of generations FIRST..LAST
#   match NET OUTDIR:  as the 28j folder's run.sh: the default setting against
#     alphabeta:ms=100 on the first 40 openings (core 0) and on --seed 2's 40 (core 1)
#   ab500 NET OUTDIR:  at equal time against alphabeta:ms=500 on seeds 1 and 2 (20 paired
#     games each, the first 40 of the 100 openings where the shipped model scored 71.5% and
#     the averaged net it starts from 76.5%), one match per core; the time left allowed
#     40 of the 100
# The result files name the net by its place in the run, /work/runs/adj-r16c/models/average-28-57.bpk,
# the same bytes as average-gen28-57.bpk here (models.sha256).
set -eu
here=$(dirname "$0")
net_value=score=1,rollouts=16,mix=0.75
case $1 in
train)
  "$OXO" train --variant adjacency --config "$here/config.toml" --run "$3" --init "$2" \
    --minutes 48 ;;
average)
  "$OXO" average --out "$5" $(seq -f "$2/models/gen-%05g.bpk" "$3" "$4") ;;
match)
  net=$2; out=$3; mkdir -p "$out"
  for core in 0 1; do
    seed=$((core + 1))
    taskset -c "$core" "$OXO" arena --variant adjacency \
      --agents "alphabeta:ms=100,net:path=$net,search=puct,ms=400,$net_value" --games 40 \
      --threads 1 --seed "$seed" --out "$out/ab100-seed$seed-40" &
  done
  wait ;;
ab500)
  net=$2; out=$3; mkdir -p "$out"
  at500="alphabeta:ms=500,net:path=$net,search=puct,ms=500,$net_value"
  for core in 0 1; do
    seed=$((core + 1))
    taskset -c "$core" "$OXO" arena --variant adjacency --agents "$at500" --games 20 \
      --threads 1 --seed "$seed" --out "$out/ab500-seed$seed-20" &
  done
  wait ;;
*)
  echo "usage: $0 train INIT RUNDIR | average RUNDIR FIRST LAST NET | match NET OUTDIR | ab500 NET OUTDIR" >&2
  exit 2 ;;
esac
