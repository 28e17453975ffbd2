#!/usr/bin/env bash
# `net:ms=500` exactly as a user types it (every other setting from the shipped model's
# model.json) against alphabeta and uct at the same 500 ms a move, in ultimate: paired games
# from 2-ply random openings, one opponent a core on this 2-core machine (both agents of a
# match on that core, thinking in turn), as matches of GAMES games (seeds FIRST_SEED, ...) so
# that every finished match is a result file. Run from the repository root:
#   lab/strength/ultimate-2026-12-05-ms500-as-typed/run.sh OXO [MATCHES] [GAMES] [FIRST_SEED]
set -euo pipefail
oxo=${1:-target/release/oxo}
matches=${2:-5}
games=${3:-20}
first=${4:-1}
here=lab/strength/ultimate-2026-12-05-ms500-as-typed
core=0
for opponent in alphabeta uct; do
  (
    for seed in $(seq "$first" $((first + matches - 1))); do
      taskset -c $core "$oxo" arena --variant ultimate --agents net:ms=500,$opponent:ms=500 \
        --games "$games" --threads 1 --seed "$seed" \
        --out "$here/net-ms500-vs-$opponent-ms500-${games}games-seed$seed"
    done
  ) &
  core=$((core + 1))
done
wait
