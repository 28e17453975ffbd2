#!/usr/bin/env python3
"""Prints run.sh's records: for each variant and build, one and two threads' samples/s (mean
and at the median step) and two threads' rate over one thread's at the config's batch of 128
(the one-thread rate of the same process). Usage: summary.py OUT/rounds.jsonl"""
import json
import sys
from collections import defaultdict

rows = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    variant = r["bench"]["variant"]
    rates = {x["threads"]: x for x in r["bench"]["report"]["rates"]}
    rows[(variant, r["build"], r["batch"])].append(rates)
for (variant, build, batch), runs in sorted(rows.items()):
    print(f"{variant}, {build} build, --batch {batch}:")
    for rates in runs:
        one, two = rates[1], rates[2]
        print(
            f"  1 thread at {one['batch']}: {one['samples_per_sec']:6.0f} ({one['median_samples_per_sec']:6.0f} median)"
            f"  2 threads at {two['batch']}: {two['samples_per_sec']:6.0f} ({two['median_samples_per_sec']:6.0f})"
            f"  x{two['samples_per_sec'] / one['samples_per_sec']:.2f} (x{two['median_samples_per_sec'] / one['median_samples_per_sec']:.2f})"
        )
