#!/bin/bash
# Two neighbours of the recorded value (score=1,rollouts=16,mix=0.75) at the default search,
# 2026-11-27: 8 playouts instead of 16, and mix 0.65 instead of 0.75, against alphabeta:ms=100 on
# the first 40 openings of the shipped model's 100 games
# (../adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-60games.json: 32-3-5 there),
# one core per match. Run from this directory.
set -eu
export ORT_DYLIB_PATH=/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/onnxruntime/capi/libonnxruntime.so.1.32.0
OXO=${OXO:-oxo}  # here: a release build of c3bd274 (target/release/oxo)
taskset -c 0 $OXO arena --variant adjacency --agents "alphabeta:ms=100,net:search=puct,ms=400,score=1,rollouts=8,mix=0.75" --games 40 --threads 1 --out rollouts8-vs-ab100-40 &
taskset -c 1 $OXO arena --variant adjacency --agents "alphabeta:ms=100,net:search=puct,ms=400,score=1,rollouts=16,mix=0.65" --games 40 --threads 1 --out mix065-vs-ab100-40 &
wait
