#!/usr/bin/env bash
# The same positions judged with the solver in the tree and without it: 300 positions reached
# by random moves at plies FROM..TO (seed SEED), the shipped connect4 model at its default
# setting with `solve=1` on core 0 and `solve=0` on core 1, at once.
# Usage (from the repository root): judge.sh OXO FROM TO SEED
set -euo pipefail
oxo=$1 from=$2 to=$3 seed=$4
here=lab/strength/connect4-2026-12-07-solver
for solve in 1 0; do
  taskset -c "$((1 - solve))" "$oxo" judge --variant connect4 --agent "net:solve=$solve" \
    --random-positions 300 --own-games 0 --first-games 0 --plies "$from..$to" --seed "$seed" \
    --out "$here/judge-solve$solve-plies$from-$to-seed$seed.json" &
done
wait
