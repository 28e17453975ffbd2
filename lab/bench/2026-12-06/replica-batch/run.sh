#!/bin/sh
# Does a replica's share of the batch set the two-thread ratio? One thread at batch 64 (a
# replica's shard when two threads split 128) and 128, two threads at 128 and 256 (a shard
# of 128 each), for the shipped ultimate and extreme nets, ROUNDS times in turn so each
# ratio is read from measurements minutes apart. Nothing else should run meanwhile.
# Usage: run.sh OXO ROUNDS OUT
set -eu
OXO=$1
ROUNDS=$2
OUT=$3
mkdir -p "$OUT"
i=1
while [ "$i" -le "$ROUNDS" ]; do
  for v in ultimate extreme; do
    for setting in "1 64" "1 128" "2 128" "2 256"; do
      set -- $setting
      "$OXO" bench train --variant "$v" --model "models/$v/model.bpk" --threads "$1" --batch "$2" \
        --seconds 5 --json \
        | python3 -c "import json,sys; d=json.load(sys.stdin); d['round']=$i; print(json.dumps(d))" \
        >> "$OUT/rounds.jsonl"
    done
  done
  i=$((i + 1))
done
