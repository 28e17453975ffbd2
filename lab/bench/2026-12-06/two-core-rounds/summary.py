"""Two threads over one, per round and overall, from run.sh's rounds.jsonl.

Usage: python3 summary.py rounds.jsonl
"""
import json
import statistics
import sys


def main(path):
    by_variant = {}
    for line in open(path):
        record = json.loads(line)
        one, two = record["report"]["rates"]
        by_variant.setdefault(record["variant"], []).append((one, two))
    for variant, rounds in by_variant.items():
        mean_ratio = [two["samples_per_sec"] / one["samples_per_sec"] for one, two in rounds]
        median_ratio = [
            two["median_samples_per_sec"] / one["median_samples_per_sec"] for one, two in rounds
        ]
        print(f"{variant}: {len(rounds)} rounds")
        for (one, two), m, d in zip(rounds, mean_ratio, median_ratio):
            print(
                f"  1 thread {one['samples_per_sec']:7.0f} (median step {one['median_samples_per_sec']:6.0f})"
                f"  2 threads {two['samples_per_sec']:7.0f} ({two['median_samples_per_sec']:6.0f})"
                f"  {m:.2f}x ({d:.2f}x)"
            )
        ones = [one["samples_per_sec"] for one, _ in rounds]
        twos = [two["samples_per_sec"] for _, two in rounds]
        print(
            f"  median of the rounds' ratios {statistics.median(mean_ratio):.2f}x"
            f" (median steps: {statistics.median(median_ratio):.2f}x);"
            f" range {min(mean_ratio):.2f}-{max(mean_ratio):.2f}x;"
            f" median rates {statistics.median(ones):.0f} and {statistics.median(twos):.0f}"
            f" ({statistics.median(twos) / statistics.median(ones):.2f}x)"
        )


if __name__ == "__main__":
    main(sys.argv[1])
