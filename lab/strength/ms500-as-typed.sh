#!/usr/bin/env bash
# `net:ms=500` exactly as a user types it (every other setting from the shipped model's
# model.json) against alphabeta and uct at the same 500 ms a move, in VARIANT: paired games
# from 2-ply random openings, one opponent a core on a 2-core machine (both agents of a match
# on that core, thinking in turn), as matches of GAMES games (seeds FIRST_SEED, ...) so that
# every finished match is a result file in OUT. Run from the repository root:
#   lab/strength/ms500-as-typed.sh VARIANT OUT OXO MATCHES GAMES FIRST_SEED
set -euo pipefail
variant=$1
here=$2
oxo=$3
matches=$4
games=$5
first=$6
core=0
for opponent in alphabeta uct; do
  (
    for seed in $(seq "$first" $((first + matches - 1))); do
      taskset -c $core "$oxo" arena --variant "$variant" --agents net:ms=500,$opponent:ms=500 \
        --games "$games" --threads 1 --seed "$seed" \
        --out "$here/net-ms500-vs-$opponent-ms500-${games}games-seed$seed"
    done
  ) &
  core=$((core + 1))
done
wait
