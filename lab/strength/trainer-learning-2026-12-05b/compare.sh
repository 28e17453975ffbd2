#!/usr/bin/env bash
# The equal-samples pairing of run.sh's nets. Running alone, the new run's trainer kept up
# with self-play (80 steps a generation, one batch of 64 games), while the earlier run,
# sharing the machine with a second run, trained its trainer's 80 steps on each of more
# game batches (160 steps a generation from generation 2 on): at generation 60 it had
# trained 9,440 steps on 371,000 positions, the new run 6,160 on 244,000. Its generation 40
# had trained 6,240 steps on 243,000 positions. So the new run's generation-60 net plays
# the earlier run's generation-40 net, 200 paired games at the play setting, two seeds.
# Usage (from the repository root): compare.sh OXO RUNS_DIR EARLIER_RUN (as run.sh's)
set -euo pipefail
oxo=$1
runs=$2
earlier=$3
here=lab/strength/trainer-learning-2026-12-05b
net() { echo "net:path=$1,search=puct,sims=200"; }
for seed in 1 2; do
  taskset -c $((seed - 1)) "$oxo" arena --variant ultimate --threads 1 --games 100 --seed $seed \
    --agents "$(net "$runs/chunks/models/gen-00060.bpk"),$(net "$earlier/models/gen-00040.bpk")" \
    --out "$here/chunks-gen60-vs-572bca8-gen40-seed$seed" &
done
wait
