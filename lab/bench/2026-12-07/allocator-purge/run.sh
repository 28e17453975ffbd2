#!/bin/sh
# Training threads with mimalloc's purging as built and with it off
# (MIMALLOC_PURGE_DELAY=-1), in alternating processes, ROUNDS times, on the shipped ultimate
# and extreme nets; each line of OUT/rounds.jsonl is one `oxo bench train --json` report with
# the setting and the machine's TLB shootdowns during it (/proc/interrupts, all cores).
# THREADS (default 1,2, what the 2-core record ran) are the thread counts measured, e.g.
# 1,4,8,16 on a 16-core machine. Nothing else should run meanwhile.
# Usage: run.sh OXO ROUNDS OUT [THREADS]
set -eu
OXO=$1
ROUNDS=$2
OUT=$3
THREADS=${4:-1,2}
mkdir -p "$OUT"
tlb() { awk '/TLB shootdowns/ { s = 0; for (i = 2; i < NF - 1; i++) s += $i; print s }' /proc/interrupts; }
for r in $(seq "$ROUNDS"); do
  for v in ultimate extreme; do
    for purge in default -1; do
      # As built, the variable is unset; off, it is -1.
      setting=MIMALLOC_PURGE_DELAY=$purge
      [ "$purge" = default ] && setting=-uMIMALLOC_PURGE_DELAY
      before=$(tlb)
      report=$(env "$setting" "$OXO" bench train --variant "$v" --model "models/$v/model.bpk" \
        --threads "$THREADS" --seconds 3 --rounds 3 --json)
      after=$(tlb)
      printf '{"round":%s,"purge_delay":"%s","tlb_shootdowns":%s,"report":%s}\n' \
        "$r" "$purge" "$((after - before))" "$report" >> "$OUT/rounds.jsonl"
    done
  done
done
