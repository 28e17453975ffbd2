#!/usr/bin/env bash
# Extreme's default agent as typed (`net`: model.json's search, 400 ms a move, solve=1 since
# 2026-12-07) against uct given 5x its time, 2000 ms a move: 10 paired games a SEED, on the
# openings of ../extreme-2026-12-05-default-vs-2000ms (the same seeds, solve=0), one core.
# Usage (from the repository root): run.sh OXO CORE SEED...
set -euo pipefail
oxo=$1 core=$2
here=lab/strength/extreme-2026-12-07c-solve-default-vs-uct2000
for seed in "${@:3}"; do
  taskset -c "$core" "$oxo" arena --variant extreme --agents net,uct:ms=2000 --games 10 \
    --threads 1 --seed "$seed" --out "$here/default-vs-uct-ms2000-10games-seed$seed"
done
