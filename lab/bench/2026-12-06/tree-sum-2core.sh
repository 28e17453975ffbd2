#!/usr/bin/env bash
# The trainer before (OLD) and after (NEW) the replicas' gradients were summed as a tree, on
# this 2-core machine: `oxo bench train` at 1 and 2 threads, batch 128, interleaved rounds.
#
#     lab/bench/2026-12-06/tree-sum-2core.sh OLD NEW ROUNDS > tree-sum-2core.jsonl
set -euo pipefail
old=$1 new=$2 rounds=${3:-2}
for round in $(seq "$rounds"); do
  for v in ultimate extreme; do
    for b in "$old" "$new"; do
      echo "{\"round\": $round, \"binary\": \"$b\"}"
      "$b" bench train --variant $v --model models/$v/model.bpk --threads 1,2 --seconds 3 --json
    done
  done
done
