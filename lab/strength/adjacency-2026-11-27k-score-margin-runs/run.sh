#!/bin/bash
# Two fresh adjacency runs with the margin so far added exactly to the score output
# (net.score_margin, in oxo from c3bd274 to its revert 9842424), 2026-11-27, one core each:
# config.toml (seed 1; stopped by hand after generation 97) and config-seed2.toml (seed 2;
# stopped by hand after generation 56 to free its core). Then generations of the first
# against alphabeta:ms=100 (the first 20 openings) and the shipped model, one core per match,
# the default play setting; and the score probe of generation 80.
# Run from this directory; needs an oxo built at c3bd274 (OXO).
set -eu
export ORT_DYLIB_PATH=/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/onnxruntime/capi/libonnxruntime.so.1.32.0
OXO=${OXO:-/work/exp/s20/oxo}
ROOT=$(git rev-parse --show-toplevel)
R=/work/runs/adj-margin
P=search=puct,ms=400,score=1,rollouts=16,mix=0.75
taskset -c 0 $OXO train --variant adjacency --config config.toml --run $R --minutes 150 &
taskset -c 1 $OXO train --variant adjacency --config config-seed2.toml --run /work/runs/adj-margin2 --minutes 115
taskset -c 1 $OXO arena --variant adjacency --agents "alphabeta:ms=100,net:path=$R/models/gen-00069.bpk,$P" --games 20 --threads 1 --out margin-gen69-vs-ab100-20
taskset -c 1 $OXO arena --variant adjacency --agents "alphabeta:ms=100,net:path=$R/models/gen-00081.bpk,$P" --games 20 --threads 1 --out margin-gen81-vs-ab100-20
wait
taskset -c 0 $OXO arena --variant adjacency --agents "alphabeta:ms=100,net:path=$R/models/gen-00097.bpk,$P" --games 20 --threads 1 --out margin-gen97-vs-ab100-20 &
taskset -c 1 $OXO arena --variant adjacency --agents "net:path=$ROOT/models/adjacency/model.bpk,$P,net:path=$R/models/gen-00097.bpk,$P" --games 20 --threads 1 --out margin-gen97-vs-shipped-20 &
wait
# The score probe of generation 80 (the games: scripts/score_probe.py's docstring), next to the
# shipped model's (../adjacency-2026-11-27j-score-skip-run/score-probe-shipped.txt).
$OXO export --model $R/models/gen-00080.bpk --out /tmp/margin-80
D=$ROOT/lab/strength
python3 $ROOT/scripts/score_probe.py /tmp/margin-80 $D/adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves/moves-ab100-seed3-24.json $D/adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves/moves-ab100-seed4-24.json $D/adjacency-2026-11-27f-first-move-advantage/ab100-vs-ab100-100games.json > score-probe-gen80.txt
