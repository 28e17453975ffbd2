#!/bin/bash
# adjacency, 2026-11-29: net:ms=500 against uct:ms=500 at equal time, with the int8 graph
# that models/adjacency/model.json records and the net agent plays by default since
# 2026-11-29 (models/adjacency/model-int8.onnx). The same 100 openings (--seed 1 to 5, 20
# games each, ten paired openings per seed, both colours) as the fp32 model's 100% in
# lab/strength/adjacency-2026-11-27-ms500-playouts075-equal-time/. Two workers, one per
# core, play the matches in order (scripts/arena_queue.sh).
# Run from the repository root with a release build as OXO and ORT_DYLIB_PATH set to
# onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-29f-int8-uct500/run.sh OUTDIR
# `run.sh tally` alone rewrites summary.json from the results in this folder.
set -u
here=$(dirname "$0")
tally() {
  python3 scripts/arena_tally.py --summary "$here/summary.json" \
    int8-vs-uct-ms500 "$here/int8-uct500-seed*-20.json" \
    fp32-vs-uct-ms500 "lab/strength/adjacency-2026-11-27-ms500-playouts075-equal-time/uct500-seed*-20.json"
}
if [ "${1:-}" = tally ]; then tally; exit; fi
net=net:search=puct,ms=500,score=1,rollouts=16,mix=0.75
for seed in 1 2 3 4 5; do echo "int8-uct500-seed$seed-20 uct:ms=500,$net 20 $seed"; done |
  scripts/arena_queue.sh adjacency "$1" 0,1
