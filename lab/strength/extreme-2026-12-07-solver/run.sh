#!/usr/bin/env bash
# The solver in the tree at equal time in extreme: `net:ms=500,solve=1` (core 0) and
# `net:ms=500,solve=0` (core 1, the model's own search as typed) at once, each against
# uct:ms=500 in GAMES paired games from the 2-ply random openings of SEED (the openings of
# ../extreme-2026-12-05-ms500-as-typed's match with the same seed).
# Usage (from the repository root): run.sh OXO SEED GAMES
set -euo pipefail
oxo=$1 seed=$2 games=$3
here=lab/strength/extreme-2026-12-07-solver
for solve in 1 0; do
  taskset -c "$((1 - solve))" "$oxo" arena --variant extreme \
    --agents "net:ms=500,solve=$solve,uct:ms=500" --games "$games" --threads 1 --seed "$seed" \
    --out "$here/solve$solve-vs-uct-ms500-${games}games-seed$seed" &
done
wait
