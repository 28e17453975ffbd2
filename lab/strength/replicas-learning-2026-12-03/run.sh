#!/bin/sh
# Does the trainer learn as much per sample with two data-parallel replicas as with one?
# Two runs of configs/ultimate.toml (60 generations, no ratings; config.toml here), at once on
# this 2-core machine: `--threads 4` gives the trainer one thread (core_split: a quarter),
# `--threads 8` two replicas. Same seed, same games and steps a generation; only the
# trainer's replicas differ. Then each pair of same-generation nets plays paired games.
# Usage: run.sh OXO RUNS_DIR
set -eu
OXO=$1
RUNS=$2
HERE=$(dirname "$0")
"$OXO" train --variant ultimate --config "$HERE/config.toml" --run "$RUNS/one-replica" --threads 4 > "$RUNS/one-replica.log" 2>&1 &
"$OXO" train --variant ultimate --config "$HERE/config.toml" --run "$RUNS/two-replicas" --threads 8 > "$RUNS/two-replicas.log" 2>&1 &
wait
