#!/usr/bin/env bash
# The GPU check: the same benchmarks on the GPU and on the same machine's CPU, then a short
# training run on the GPU that is stopped and resumed.
#
#   scripts/gpu-check.sh OXO DEVICE OUT
#
# OXO: an oxo built with the GPU backend (`cargo build --release --features vulkan`);
# DEVICE: its --device name (vulkan, cuda); OUT: a directory for the logs and the run's
# metrics. Every step prints what it runs.
set -uo pipefail
oxo=${1:?usage: scripts/gpu-check.sh OXO DEVICE OUT}
device=${2:?usage: scripts/gpu-check.sh OXO DEVICE OUT}
out=${3:?usage: scripts/gpu-check.sh OXO DEVICE OUT}
mkdir -p "$out"
cores=$(nproc)

step() {
  echo "+ $*"
  "$@"
}

for net in "4 32" "6 64" "10 128"; do
  set -- $net
  step "$oxo" bench nn --variant ultimate --blocks "$1" --channels "$2" --seconds 3 \
    --batches 1,64,256,1024,4096 --train-batch 1024 --device "$device"
  step "$oxo" bench nn --variant ultimate --blocks "$1" --channels "$2" --seconds 3 \
    --batches 1,64,256,1024 --train-batch 256 --device cpu
done

# Self-play with the shipped ultimate config's search: every core searches, the GPU
# evaluates large batches; the CPU alone for comparison.
step "$oxo" bench selfplay --variant ultimate --seconds 30 --workers "$cores" \
  --parallel-games 2048 --device "$device"
step "$oxo" bench selfplay --variant ultimate --seconds 30 --workers "$cores" --device cpu

# Training on the GPU: a few minutes, stopped at a stage boundary and resumed.
config="$out/ultimate-gpu.toml"
run=$(mktemp -d)/run
sed -e 's/^games_per_generation = .*/games_per_generation = 256/' \
  -e 's/^parallel_games = .*/parallel_games = 256/' \
  -e 's/^batch_size = .*/batch_size = 512/' configs/ultimate.toml >"$config"
for _ in 1 2; do
  step "$oxo" train --variant ultimate --config "$config" --run "$run" --minutes 1.5 \
    --device "$device"
done
cp "$run/metrics.jsonl" "$run/log.txt" "$out/"
