#!/usr/bin/env python3
"""Prints the records of lab/bench/2026-12-06/paired-rounds/run.sh: each round's one- and
two-thread samples/s and their ratio, and the speed-ups `oxo bench train` reports (the
median of the rounds' ratios, and the ratio of the rates at the median step).
Usage: summary.py OUT..."""
import json
import sys

for out in sys.argv[1:]:
    for variant in ("ultimate", "extreme"):
        report = json.load(open(f"{out}/{variant}.json"))
        one, two = report["report"]["rates"]
        a, b = one["round_samples_per_sec"], two["round_samples_per_sec"]
        print(f"{out}/{variant}.json (commit {report['git_commit'][:7]}):")
        print("  1 thread ", " ".join(f"{x:5.0f}" for x in a))
        print("  2 threads", " ".join(f"{x:5.0f}" for x in b))
        print("  ratio    ", " ".join(f"{y / x:5.2f}" for x, y in zip(a, b)))
        median = two["median_samples_per_sec"] / one["median_samples_per_sec"]
        print(f"  speed-up x{two['speedup']:.2f} (median of the ratios), x{median:.2f} at the median step")
