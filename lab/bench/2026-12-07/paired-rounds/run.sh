#!/bin/sh
# One and two training threads on this machine's 2 cores, measured in ROUNDS rounds by
# `oxo bench train --rounds` (each round trains 3 s on one thread at the config's batch of 128,
# then 3 s on two, each replica on a batch of 128, as `oxo train`'s trainer does), so each
# speed-up is the median of ratios measured seconds apart; the shipped ultimate and extreme
# nets. Nothing else should run meanwhile; summary.py OUT... prints the records.
# Usage: run.sh OXO ROUNDS OUT
set -eu
OXO=$1
ROUNDS=$2
OUT=$3
mkdir -p "$OUT"
for v in ultimate extreme; do
  "$OXO" bench train --variant "$v" --model "models/$v/model.bpk" --threads 1,2 --seconds 3 \
    --rounds "$ROUNDS" --json > "$OUT/$v.json"
done
