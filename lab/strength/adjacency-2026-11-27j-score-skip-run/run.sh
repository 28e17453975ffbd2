#!/bin/bash
# A fresh adjacency run with the score's input skip (net.score_skip, in oxo from 038afd6 to 6a397f7,
# removed in 9b7a8b4), 2026-11-27, one core; then its generations 80
# and 95 against the shipped model and generation 95 against alphabeta:ms=100, one core per
# match, the default play setting. Needs an oxo built at 038afd6 (OXO).
set -eu
export ORT_DYLIB_PATH=/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/onnxruntime/capi/libonnxruntime.so.1.32.0
OXO=${OXO:-/work/exp/s19/oxo-skip}
R=/work/runs/adj-skip
P=search=puct,ms=400,score=1,rollouts=16,mix=0.75
taskset -c 0 $OXO train --variant adjacency --config config.toml --run $R --minutes 115  # stopped by hand after generation 95
taskset -c 1 $OXO arena --variant adjacency --agents "net:path=models/adjacency/model.bpk,$P,net:path=$R/models/gen-00080.bpk,$P" --games 20 --threads 1 --out skip-gen80-vs-shipped-20
taskset -c 0 $OXO arena --variant adjacency --agents "net:path=models/adjacency/model.bpk,$P,net:path=$R/models/gen-00095.bpk,$P" --games 20 --threads 1 --out skip-gen95-vs-shipped-20 &
taskset -c 1 $OXO arena --variant adjacency --agents "alphabeta:ms=100,net:path=$R/models/gen-00095.bpk,$P" --games 20 --threads 1 --out skip-gen95-vs-ab100-20 &
wait
# The score probe of generation 95 (the games: scripts/score_probe.py's docstring).
$OXO export --model $R/models/gen-00095.bpk --out /tmp/skip-95
python3 scripts/score_probe.py /tmp/skip-95 ../adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves/moves-ab100-seed3-24.json ../adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves/moves-ab100-seed4-24.json ../adjacency-2026-11-27f-first-move-advantage/ab100-vs-ab100-100games.json
