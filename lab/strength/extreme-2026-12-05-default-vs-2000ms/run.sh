#!/usr/bin/env bash
# The shipped extreme model's default agent (`net`, the search its model.json records, 400 ms a
# move) against alphabeta and uct given 5x its time, 2000 ms a move: paired games from 2-ply
# random openings, one opponent a core on this 2-core machine, each as matches of 10 games
# (seeds 1, 2, ...) so that every finished match is a result file. Extreme's games run about
# 150 plies, three minutes a game here. Run from the repository root:
#   lab/strength/extreme-2026-12-05-default-vs-2000ms/run.sh OXO [MATCHES]
set -euo pipefail
oxo=${1:-target/release/oxo}
matches=${2:-2}
here=lab/strength/extreme-2026-12-05-default-vs-2000ms
core=0
for opponent in alphabeta uct; do
  (
    for seed in $(seq "$matches"); do
      taskset -c $core "$oxo" arena --variant extreme --agents net,$opponent:ms=2000 --games 10 \
        --threads 1 --seed "$seed" --out "$here/default-vs-$opponent-ms2000-10games-seed$seed"
    done
  ) &
  core=$((core + 1))
done
wait
