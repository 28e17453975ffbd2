#!/usr/bin/env bash
# The shipped ultimate model's default agent (`net`, the search its model.json records, 400 ms
# a move) against the handcrafted agents given 5x its time: alphabeta and uct at 2000 ms a
# move, 40 paired games each from 2-ply random openings, on one core (core 0 of this 2-core
# machine; core 1 played other matches meanwhile). Run from the repository root:
#   lab/strength/ultimate-2026-12-03-default-vs-2000ms/run.sh OXO
set -euo pipefail
oxo=${1:-target/release/oxo}
here=lab/strength/ultimate-2026-12-03-default-vs-2000ms
for opponent in alphabeta uct; do
  taskset -c 0 "$oxo" arena --variant ultimate --agents "net,$opponent:ms=2000" --games 40 \
    --threads 1 --out "$here/default-vs-$opponent-ms2000-40games"
done
