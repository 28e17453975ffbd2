#!/usr/bin/env bash
# A screen of one play-time setting of extreme's shipped model against uct:ms=500 at equal
# time, on the openings of ../extreme-2026-12-05-ms500-as-typed's match with the same seed
# (paired games from 2-ply random openings, one core). SETTING is added to `net:ms=500`.
# Run from the repository root:
#   lab/strength/extreme-2026-12-05-uct500-screen/run.sh OXO CORE SETTING GAMES SEED
set -euo pipefail
oxo=$1; core=$2; setting=$3; games=$4; seed=$5
here=lab/strength/extreme-2026-12-05-uct500-screen
taskset -c "$core" "$oxo" arena --variant extreme --agents "net:ms=500,$setting,uct:ms=500" \
  --games "$games" --threads 1 --seed "$seed" \
  --out "$here/net-ms500-$(echo "$setting" | tr ',=' '-')-vs-uct-ms500-${games}games-seed$seed"
