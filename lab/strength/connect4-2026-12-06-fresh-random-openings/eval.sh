#!/usr/bin/env bash
# The fresh run's model (NEW, its best net exported by `oxo export`) at the default setting
# (its model.json's: PUCT at 400 ms a move, one core), two jobs at once on this 2-core
# machine, as the shipped model and the random-openings leg were measured: on core 0, 100
# paired games against alphabeta:ms=100 from 2-ply random openings; on core 1, judged by the
# exact solver on the positions of seeds 1 and 2 (200 random positions, every move of 8 own
# games after 2 random moves, plies 4 to 30, 4 games as X against `solver`).
# Run from the repository root: lab/strength/connect4-2026-12-06-fresh-random-openings/eval.sh OXO NEW
set -euo pipefail
oxo=$1
new=$2
here=lab/strength/connect4-2026-12-06-fresh-random-openings

taskset -c 0 "$oxo" arena --variant connect4 --agents "net:path=$new,alphabeta:ms=100" \
  --games 100 --threads 1 --out "$here/fresh-vs-alphabeta-ms100-100games" &
for seed in 1 2; do
  taskset -c 1 "$oxo" judge --variant connect4 --agent "net:path=$new" --seed "$seed" \
    --random-positions 200 --own-games 8 --first-games 4 --out "$here/judge-seed$seed-fresh.json"
done
wait
