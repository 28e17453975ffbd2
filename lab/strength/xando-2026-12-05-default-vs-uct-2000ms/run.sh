#!/usr/bin/env bash
# The shipped xando model's default agent (`net`, the search its model.json records, 400 ms a
# move) against uct given 5x its time, 2000 ms a move: 40 paired games from 2-ply random
# openings, as two matches of 20 (seeds 1 and 2) at once, one core each on this 2-core
# machine. Run from the repository root:
#   lab/strength/xando-2026-12-05-default-vs-uct-2000ms/run.sh OXO
set -euo pipefail
oxo=${1:-target/release/oxo}
here=lab/strength/xando-2026-12-05-default-vs-uct-2000ms
for seed in 1 2; do
  taskset -c $((seed - 1)) "$oxo" arena --variant xando --agents net,uct:ms=2000 --games 20 \
    --threads 1 --seed $seed --out "$here/default-vs-uct-ms2000-20games-seed$seed" &
done
wait
