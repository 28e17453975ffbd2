#!/usr/bin/env bash
# The solver in the tree (`net:solve=1`) against the shipped connect4 model's default
# search (the same with `solve=0`), both at the default setting (its model.json: PUCT at
# 400 ms a move, one core), on this machine at once, one core each: 100 paired games against
# alphabeta:ms=100 from 2-ply random openings (seed 1: the openings of the shipped model's
# record, lab/strength/connect4-2026-12-06-fresh-random-openings/).
# Usage (from the repository root): run.sh OXO
set -euo pipefail
oxo=$1
here=lab/strength/connect4-2026-12-07-solver
for solve in 1 0; do
  taskset -c "$solve" "$oxo" arena --variant connect4 --agents "net:solve=$solve,alphabeta:ms=100" \
    --games 100 --threads 1 --out "$here/solve$solve-vs-alphabeta-ms100-100games" &
done
wait
