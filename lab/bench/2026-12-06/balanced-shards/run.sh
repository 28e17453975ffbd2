#!/bin/sh
# Shards that follow the replicas' speeds against equal shards, two-thread training on this
# 2-core machine: `oxo bench train` of the two builds in alternating processes (PAIRS
# pairs a variant; each process ROUNDS rounds of 3 s on one thread, then on two), nothing
# else running. Each process's record is one JSON line in OUT/VARIANT.jsonl, tagged with
# its build.
# Usage (from the repository root): run.sh EQUAL BALANCED PAIRS ROUNDS OUT [VARIANTS...]
set -eu
EQUAL=$1
BALANCED=$2
PAIRS=$3
ROUNDS=$4
OUT=$5
shift 5
VARIANTS=${*:-ultimate extreme}
mkdir -p "$OUT"
for v in $VARIANTS; do
  for p in $(seq "$PAIRS"); do
    for build in equal balanced; do
      if [ "$build" = equal ]; then oxo=$EQUAL; else oxo=$BALANCED; fi
      "$oxo" bench train --variant "$v" --model "models/$v/model.bpk" --threads 1,2 \
        --seconds 3 --rounds "$ROUNDS" --json |
        python3 -c "import json,sys; r=json.load(sys.stdin); r['build']='$build'; r['pair']=$p; print(json.dumps(r))" \
        >> "$OUT/$v.jsonl"
    done
  done
done
