#!/usr/bin/env bash
# run.sh's match against uct:ms=2000 again on 20 other openings (seed 2), on core 0 while
# core 1 played xando's match. Run from the repository root:
#   lab/strength/ultimate-2026-12-03-default-vs-2000ms/seed2.sh OXO
set -euo pipefail
oxo=${1:-target/release/oxo}
here=lab/strength/ultimate-2026-12-03-default-vs-2000ms
taskset -c 0 "$oxo" arena --variant ultimate --agents net,uct:ms=2000 --games 40 --seed 2 \
  --threads 1 --out "$here/default-vs-uct-ms2000-40games-seed2"
