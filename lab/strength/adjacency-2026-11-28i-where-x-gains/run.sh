#!/bin/bash
# adjacency, 2026-11-28: where moving first gains, from the moves recorded in earlier matches
# (no new games). Run from the repository root (python3 with numpy, for scripts/oxo_onnx.py):
#   lab/strength/adjacency-2026-11-28i-where-x-gains/run.sh > lab/strength/adjacency-2026-11-28i-where-x-gains/placements.txt
set -eu
here=$(dirname "$0")
D=lab/strength
F=$D/adjacency-2026-11-27f-first-move-advantage
M=$D/adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves
R=$D/adjacency-2026-11-28h-last-placement-plane-rerun
python3 "$here/placements.py" \
  "alphabeta:ms=100 against itself" "$F/ab100-vs-ab100-100games.json" any \
  "alphabeta:ms=500 against itself" "$F/ab500-vs-ab500-*.json" any \
  "the default agent against itself" "$F/net-vs-net-ms400-20games.json" any \
  "the default agent X, alphabeta:ms=100 O" "$M/moves-ab100-seed*-24.json" 1 \
  "alphabeta:ms=100 X, the default agent O" "$M/moves-ab100-seed*-24.json" 0 \
  "last-placement net at 500 ms X, alphabeta:ms=500 O" "$R/ab500-seed*-20.json" 1 \
  "alphabeta:ms=500 X, last-placement net at 500 ms O" "$R/ab500-seed*-20.json" 0
