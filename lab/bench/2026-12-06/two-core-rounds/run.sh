#!/bin/sh
# One and two training threads on this machine's 2 cores, ROUNDS times in turn for the shipped
# ultimate and extreme nets, so the ratio is read from rounds minutes apart instead of one
# pair of measurements (on a shared virtual machine the same binary's two-thread rate moves
# by a quarter from one minute to the next). Nothing else should run meanwhile.
# Usage: run.sh OXO ROUNDS OUT
set -eu
OXO=$1
ROUNDS=$2
OUT=$3
mkdir -p "$OUT"
i=1
while [ "$i" -le "$ROUNDS" ]; do
  for v in ultimate extreme; do
    "$OXO" bench train --variant "$v" --model "models/$v/model.bpk" --threads 1,2 --seconds 5 --json \
      | python3 -c "import json,sys; d=json.load(sys.stdin); d['round']=$i; print(json.dumps(d))" >> "$OUT/rounds.jsonl"
  done
  i=$((i + 1))
done
