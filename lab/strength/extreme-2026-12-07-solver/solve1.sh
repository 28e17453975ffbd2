#!/usr/bin/env bash
# `net:ms=500,solve=1` against uct:ms=500 in extreme, GAMES paired games from the 2-ply
# random openings of each SEED given, one match a core at once (the openings of
# ../extreme-2026-12-05-ms500-as-typed's matches with the same seeds).
# Usage (from the repository root): solve1.sh OXO GAMES SEED_ON_CORE0 SEED_ON_CORE1
set -euo pipefail
oxo=$1 games=$2
here=lab/strength/extreme-2026-12-07-solver
for core in 0 1; do
  seed=${*:3+core:1}
  taskset -c "$core" "$oxo" arena --variant extreme --agents "net:ms=500,solve=1,uct:ms=500" \
    --games "$games" --threads 1 --seed "$seed" \
    --out "$here/solve1-vs-uct-ms500-${games}games-seed$seed" &
done
wait
