#!/bin/sh
# The exact value of each 2-ply random opening of a connect4 match: `solver` against itself
# (a second copy by seed) on the openings of --seed 1, so each game's result is its
# opening's value with perfect play. Then by_value.py splits a match on the same openings by
# those values.
# Run from the repository root: lab/strength/connect4-2026-12-06-opening-values/run.sh OXO
set -eu
OXO=$1
here=lab/strength/connect4-2026-12-06-opening-values
"$OXO" arena --variant connect4 --agents solver,solver:seed=2 --games 100 --threads 1 \
  --out "$here/solver-vs-solver-100games"
python3 "$here/by_value.py" "$here/solver-vs-solver-100games.json" \
  lab/strength/connect4-2026-12-06-fresh-random-openings/fresh-vs-alphabeta-ms100-100games.json
