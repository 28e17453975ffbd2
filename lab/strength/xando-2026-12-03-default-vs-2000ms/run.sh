#!/usr/bin/env bash
# The shipped xando model's default agent (`net`, the search its model.json records, 400 ms
# a move) against alphabeta given 5x its time, 2000 ms a move: 40 paired games from 2-ply
# random openings, on one core (core 1 of this 2-core machine; core 0 played ultimate's
# matches meanwhile). Run from the repository root:
#   lab/strength/xando-2026-12-03-default-vs-2000ms/run.sh OXO
set -euo pipefail
oxo=${1:-target/release/oxo}
here=lab/strength/xando-2026-12-03-default-vs-2000ms
taskset -c 1 "$oxo" arena --variant xando --agents net,alphabeta:ms=2000 --games 40 \
  --threads 1 --out "$here/default-vs-alphabeta-ms2000-40games"
