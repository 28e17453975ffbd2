#!/usr/bin/env bash
# The shipped models' goal matches again, as a user types them, after the player code left
# the trainer and the pipeline became one: the default agent (`net`, the search its
# model.json records) against alphabeta:ms=100, 100 paired games from 2-ply random openings,
# one core (core 1 of this 2-core machine; core 0 trained connect4 meanwhile), one variant
# after the other. Run from the repository root:
#   lab/strength/shipped-rerun-2026-12-03/run.sh OXO VARIANT...
set -euo pipefail
oxo=${1:-target/release/oxo}
shift
here=lab/strength/shipped-rerun-2026-12-03
for variant in "$@"; do
  taskset -c 1 "$oxo" arena --variant "$variant" --agents net,alphabeta:ms=100 --games 100 \
    --threads 1 --out "$here/$variant-default-vs-alphabeta-ms100-100games"
done
