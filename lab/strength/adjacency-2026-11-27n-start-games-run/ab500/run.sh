#!/bin/bash
# The start-games candidate (generation 171; /work/exp/s21/adj-start-gen171.bpk in the result
# files, sha256 66fd61d3... in ../models.sha256) at equal time against alphabeta:ms=500 on
# this project's workstation, one core per match, both cores busy, seeds 1 and 2: the
# openings of the shipped model's ab500-seed1-20.json and ab500-seed2-20.json in
# ../../adjacency-2026-11-27-ms500-playouts075-equal-time/, played the same way. From the
# repository root, OXO a release build, ORT_DYLIB_PATH set, MODEL the candidate:
for s in 1 2; do
  taskset -c $((s - 1)) "$OXO" arena --variant adjacency \
    --agents alphabeta:ms=500,net:path=$MODEL,search=puct,ms=500,score=1,rollouts=16,mix=0.75 \
    --games 20 --threads 1 --seed $s --out cand-ab500-seed$s &
done
wait
