#!/usr/bin/env bash
# Does extreme's net gain from time as much as uct does? `net:ms=2000` (as typed: every other
# setting from the shipped model.json) against `uct:ms=2000`, equal time at four times the
# 500 ms of the goal matches, paired games from 2-ply random openings, one match pinned to one
# core of this 2-core machine (the other core ran the test suite, then the second match).
# Run from the repository root:
#   lab/strength/extreme-2026-12-06-ms2000-equal-time/run.sh OXO GAMES SEED CORE
set -euo pipefail
oxo=$1; games=$2; seed=$3; core=$4
here=lab/strength/extreme-2026-12-06-ms2000-equal-time
taskset -c "$core" "$oxo" arena --variant extreme --agents net:ms=2000,uct:ms=2000 \
  --games "$games" --threads 1 --seed "$seed" \
  --out "$here/net-ms2000-vs-uct-ms2000-${games}games-seed$seed"
