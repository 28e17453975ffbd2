#!/bin/sh
# One and two training threads with mimalloc's purging as built and with it off
# (MIMALLOC_PURGE_DELAY=-1), in alternating processes, ROUNDS times, on the shipped ultimate
# and extreme nets; each line of OUT/rounds.jsonl is one `oxo bench train --json` report with
# the setting and the machine's TLB shootdowns during it (/proc/interrupts, all cores).
# Nothing else should run meanwhile.
# Usage: run.sh OXO ROUNDS OUT
set -eu
OXO=$1
ROUNDS=$2
OUT=$3
mkdir -p "$OUT"
tlb() { awk '/TLB shootdowns/ { s = 0; for (i = 2; i < NF - 1; i++) s += $i; print s }' /proc/interrupts; }
for r in $(seq "$ROUNDS"); do
  for v in ultimate extreme; do
    for purge in default -1; do
      before=$(tlb)
      if [ "$purge" = default ]; then
        report=$("$OXO" bench train --variant "$v" --model "models/$v/model.bpk" --threads 1,2 --seconds 3 --rounds 3 --json)
      else
        report=$(MIMALLOC_PURGE_DELAY=$purge "$OXO" bench train --variant "$v" --model "models/$v/model.bpk" --threads 1,2 --seconds 3 --rounds 3 --json)
      fi
      after=$(tlb)
      printf '{"round":%s,"purge_delay":"%s","tlb_shootdowns":%s,"report":%s}\n' \
        "$r" "$purge" "$((after - before))" "$report" >> "$OUT/rounds.jsonl"
    done
  done
done
