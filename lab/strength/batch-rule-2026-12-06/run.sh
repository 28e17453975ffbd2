#!/bin/sh
# Does the trainer learn as much per sample at twice the batch? Two runs of ultimate (40
# generations, the replicas experiment's config otherwise), at once on this 2-core machine,
# each with `--threads 8` (the trainer's 2 replicas): batch-128.toml (128 positions, 80 steps a
# generation, learning rate 0.001) and batch-256.toml (256 positions, 40 steps, the learning
# rate times the square root of 2, the rule for Adam of Malladi et al. 2022). Same seed,
# same positions a generation; then compare.sh plays their same-generation nets.
# Usage: run.sh OXO RUNS_DIR
set -eu
OXO=$1
RUNS=$2
HERE=$(dirname "$0")
for batch in 128 256; do
  "$OXO" train --variant ultimate --config "$HERE/batch-$batch.toml" --run "$RUNS/batch-$batch" --threads 8 > "$RUNS/batch-$batch.log" 2>&1 &
done
wait
