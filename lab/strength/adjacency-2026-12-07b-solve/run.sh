#!/bin/bash
# adjacency, 2026-12-07: does proving positions in the tree (net:solve=1, MCTS-Solver:
# docs/experiments.md, "Proving positions in the tree") help the default agent against
# alphabeta:ms=100, where every game it loses it loses as O, most of them by a few points?
# The default setting as typed plus solve=1 (model.json: PUCT at 400 ms on the int8 graph,
# 16 playouts mixed at 0.75, the margin as the net's value), on the openings of the
# README's record (../adjacency-2026-11-29e-int8-graph/int8-default-ab100-seed{2,5}-40.json:
# --seed 2 and 5, 40 paired games each, alphabeta first as there), one match a core at once.
# Run from the repository root with OXO a release build:
#   OXO=... run.sh match   # the two matches
#   run.sh tally           # summary.txt, summary.json: solve=1 beside the record
set -eu
here=$(dirname "$0")
record=lab/strength/adjacency-2026-11-29e-int8-graph/int8-default-ab100-seed
case ${1-} in
match)
  for seed in 2 5; do
    echo "solve-ab100-seed$seed-40 alphabeta:ms=100,net:solve=1 40 $seed"
  done | scripts/arena_queue.sh adjacency "$here" 0,1 ;;
tally)
  python3 scripts/arena_tally.py --summary "$here/summary.json" \
    --pair record solve record "${record}[25]-40.json" solve "$here/solve-ab100-seed[25]-40.json" |
    tee "$here/summary.txt" ;;
*)
  echo "usage: $0 match | tally" >&2
  exit 2 ;;
esac
