#!/usr/bin/env python3
"""Summary of run.sh's records: per process, one and two threads' median round rates, the
bench's speed-up (median of the rounds' own ratios) and the ratio of the median steps; then
each build's speed-ups and their median. Usage: summary.py records/VARIANT.jsonl..."""
import json
import statistics
import sys

for path in sys.argv[1:]:
    print(path)
    by_build = {}
    for line in open(path):
        record = json.loads(line)
        one, two = record["report"]["rates"][:2]
        rounds = [b / a for a, b in zip(one["round_samples_per_sec"], two["round_samples_per_sec"])]
        print(
            f"  {record['build']:9s} pair {record['pair']}: "
            f"1 thread {statistics.median(one['round_samples_per_sec']):6.0f}/s, "
            f"2 threads {statistics.median(two['round_samples_per_sec']):6.0f}/s, "
            f"speed-up {two['speedup']:.2f}, median steps "
            f"{two['median_samples_per_sec'] / one['median_samples_per_sec']:.2f}, rounds "
            + " ".join(f"{r:.2f}" for r in rounds)
        )
        by_build.setdefault(record["build"], []).append(two["speedup"])
    for build, speedups in by_build.items():
        listed = ", ".join(f"{s:.2f}" for s in speedups)
        print(f"  {build}: speed-ups {listed}; median {statistics.median(speedups):.2f}")
