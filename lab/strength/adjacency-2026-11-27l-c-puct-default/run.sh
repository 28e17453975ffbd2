#!/bin/bash
# PUCT's exploration weight at the default play setting (c_puct 1.25 recorded), 2026-11-27:
# 2.5 and 0.8 against alphabeta:ms=100 on the first 40 openings of the shipped model's 100
# games (../adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-60games.json: 32-3-5
# there), one core per match. Run from this directory.
set -eu
export ORT_DYLIB_PATH=/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/onnxruntime/capi/libonnxruntime.so.1.32.0
OXO=${OXO:-oxo}  # here: a release build of c3bd274 (target/release/oxo)
P=search=puct,ms=400,score=1,rollouts=16,mix=0.75
taskset -c 0 $OXO arena --variant adjacency --agents "alphabeta:ms=100,net:$P,c_puct=2.5" --games 40 --threads 1 --out cpuct25-vs-ab100-40 &
taskset -c 1 $OXO arena --variant adjacency --agents "alphabeta:ms=100,net:$P,c_puct=0.8" --games 40 --threads 1 --out cpuct08-vs-ab100-40 &
wait
