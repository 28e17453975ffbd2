#!/bin/bash
# adjacency, 2026-11-28: a fresh run of configs/adjacency.toml with train.score_search_weight
# = 0.5 (config.toml): half of each score target is the full search's root value, the margin
# it predicts, and half the game's final margin, where the shipped run trained on the margin
# alone. 52 minutes on 2 cores, about the shipped run's 1.68 CPU-hours.
# From the repository root, OXO a release build of 5f5baa2, ORT_DYLIB_PATH set:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-28b-score-search-target-run/run.sh RUNDIR
set -eu
"$OXO" train --variant adjacency --config "$(dirname "$0")/config.toml" --run "$1" --minutes 52
