#!/usr/bin/env bash
# Training speed of two oxo binaries, one before a change (A) and one after (B), beside
# PyTorch on the same nets, interleaved for ROUNDS rounds; one JSON record a line, each oxo
# record after a line naming its binary. From the repository root:
#   lab/bench/2026-12-05/train-speed-replicas.sh A B ROUNDS "what A is" "what B is" > RECORD
set -euo pipefail
cd "$(dirname "$0")/../../.."
A=$1; B=$2; rounds=$3
echo "{\"before\": \"${4:-$A}\", \"after\": \"${5:-$B}\", \"date\": \"$(date -u +%FT%TZ)\", \"cpu\": \"$(lscpu | sed -n 's/^Model name: *//p')\"}"
for round in $(seq "$rounds"); do
  for variant in ultimate extreme; do
    for bin in $A $B; do
      echo "{\"binary\": \"$(basename $bin)\", \"round\": $round}"
      taskset -c 0,1 "$bin" bench train --variant "$variant" --model "models/$variant/model.bpk" --threads 1,2 --seconds 4 --json
    done
    for threads in 1 2; do
      taskset -c "0-$((threads - 1))" python3 scripts/bench_torch_train.py "models/$variant/model.json" --threads "$threads" --seconds 4
    done
  done
done
