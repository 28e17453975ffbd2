#!/usr/bin/env bash
# The fresh random-openings run after its last 19 minutes (6.0 CPU-hours in all; its best net
# exported by `oxo export` to NEW), measured as generation 1167 was: on core 0, 100 paired
# games against alphabeta:ms=100 from 2-ply random openings, then 40 paired games against
# OLD (generation 1167, the shipped model before); on core 1, judged by the exact solver on
# the positions of seeds 1, 2 and 3 (200 random positions, every move of 8 own games after 2
# random moves, plies 4 to 30, 4 games as X against `solver`). Default setting: the model's
# own model.json (PUCT at 400 ms a move, one core).
# Run from the repository root: lab/strength/connect4-2026-12-06-fresh-run-to-6h/eval.sh OXO NEW OLD
set -euo pipefail
oxo=$1
new=$2
old=$3
here=lab/strength/connect4-2026-12-06-fresh-run-to-6h

(
  taskset -c 0 "$oxo" arena --variant connect4 --agents "net:path=$new,alphabeta:ms=100" \
    --games 100 --threads 1 --out "$here/new-vs-alphabeta-ms100-100games"
  taskset -c 0 "$oxo" arena --variant connect4 --agents "net:path=$new,net:path=$old" \
    --games 40 --threads 1 --out "$here/new-vs-gen1167-40games"
) &
for seed in 1 2 3; do
  taskset -c 1 "$oxo" judge --variant connect4 --agent "net:path=$new" --seed "$seed" \
    --random-positions 200 --own-games 8 --first-games 4 --out "$here/judge-seed$seed.json"
done
wait
