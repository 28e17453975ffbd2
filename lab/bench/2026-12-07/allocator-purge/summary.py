#!/usr/bin/env python3
"""Prints run.sh's records: for each variant and purge setting, each process's one- and
two-thread samples/s, the speed-up `oxo bench train` reports (the median of its rounds'
ratios) and the TLB shootdowns during the process; then each setting's median speed-up.
Usage: summary.py OUT/rounds.jsonl"""
import json
import statistics
import sys
from collections import defaultdict

rows = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    rates = {x["threads"]: x for x in r["report"]["report"]["rates"]}
    rows[(r["report"]["variant"], r["purge_delay"])].append((rates, r["tlb_shootdowns"]))
for (variant, purge), runs in sorted(rows.items()):
    print(f"{variant}, MIMALLOC_PURGE_DELAY {purge}:")
    for rates, tlb in runs:
        one, two = rates[1], rates[2]
        print(
            f"  1 thread {one['samples_per_sec']:5.0f}  2 threads {two['samples_per_sec']:5.0f}"
            f"  speed-up x{two['speedup']:.2f}  TLB shootdowns {tlb}"
        )
    print(f"  median speed-up x{statistics.median(r[2]['speedup'] for r, _ in runs):.2f}")
