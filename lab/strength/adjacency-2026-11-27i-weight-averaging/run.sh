#!/bin/bash
# Weight averaging (oxo average) of late generations, 2026-11-27: each mean against a snapshot
# head to head, and the continuation's mean against alphabeta:ms=100 on the first 40 openings
# of the shipped model's 100 games. One core per match, the default play setting.
set -eu
export ORT_DYLIB_PATH=/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/onnxruntime/capi/libonnxruntime.so.1.32.0
OXO=${OXO:-target/release/oxo}
P=search=puct,ms=400,score=1,rollouts=16,mix=0.75
# The points-target run (lab/strength/adjacency-2026-11-27h-points-target-run/): gens 79-108.
R=/work/runs/adj-points/models
$OXO average --out swa-points.bpk $(seq -f "$R/gen-%05g.bpk" 79 108)
# The continuation of the shipped model with playouts in self-play
# (lab/strength/adjacency-2026-11-27c-selfplay-playouts-run/): gens 81-110.
R=/work/runs/adj-r16/models
$OXO average --out swa-r16.bpk $(seq -f "$R/gen-%05g.bpk" 81 110)
taskset -c 0 $OXO arena --variant adjacency --agents "net:path=/work/runs/adj-points/models/gen-00108.bpk,$P,net:path=swa-points.bpk,$P" --games 20 --threads 1 --out swa-points-vs-gen108-20 &
taskset -c 1 $OXO arena --variant adjacency --agents "net:path=models/adjacency/model.bpk,$P,net:path=swa-r16.bpk,$P" --games 20 --threads 1 --out swa-r16-vs-shipped-20 &
wait
taskset -c 0 $OXO arena --variant adjacency --agents "alphabeta:ms=100,net:path=swa-r16.bpk,$P" --games 40 --threads 1 --seed 1 --out swa-r16-vs-ab100-seed1-40
