#!/bin/bash
# adjacency, 2026-11-27: the shipped model's int8 graph at the default search. The graph is
# lab/engines/adjacency-int8.onnx, made by
#   python3 scripts/quantize_int8.py models/adjacency lab/engines/adjacency-int8.onnx
# (largest and mean differences from fp32 on 1,000 of the model's own positions: policy
# 0.108 and 0.013, value 0.197 and 0.035, score 0.060 and 0.012; the result files name it
# /work/exp/s18/adjacency-int8.onnx, the path it was played from). At 400 simulations a
# move without tree reuse it searches in 0.041 s where fp32 takes 0.085 s (2.1x;
# scripts/time_per_move.py target/release/oxo adjacency --moves 60 --agent
# "net:path=models/adjacency/model.bpk,search=puct,sims=400,reuse=0,rollouts=16,mix=0.75,score=1[,onnx=...]").
# Both matches at the default search (400 ms a move, the value model.json records), one core:
#   int8 against fp32, 20 paired games;
#   int8 against alphabeta:ms=100 on the first 40 paired openings (fp32 scored 32-3-5 there,
#   lab/strength/adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-60games.json).
# Run from the repository root with OXO a release build and ORT_DYLIB_PATH set:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-27g-int8-default/run.sh OUTDIR
set -eu
out=$1; mkdir -p "$out"
int8=lab/engines/adjacency-int8.onnx
taskset -c 0 "$OXO" arena --variant adjacency \
  --agents "net:search=puct,ms=400,net:search=puct,ms=400,onnx=$int8" \
  --games 20 --threads 1 --out "$out/int8-vs-fp32-ms400-20games"
taskset -c 0 "$OXO" arena --variant adjacency \
  --agents "alphabeta:ms=100,net:search=puct,ms=400,onnx=$int8" \
  --games 40 --threads 1 --out "$out/int8-default-vs-ab100-40games"
scripts/arena_tally.py --summary "$out/summary.json" \
  int8-vs-fp32 "$out/int8-vs-fp32-ms400-20games.json" \
  int8-vs-alphabeta-ms100 "$out/int8-default-vs-ab100-40games.json"
