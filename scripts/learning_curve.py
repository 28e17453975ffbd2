#!/usr/bin/env python3
"""Draws a run's learning curve: the best net's Elo (95% interval) from the in-loop ratings
against the run's fixed handcrafted ladder (`gate.rate_agents`, `random` = 0) over the
training CPU-hours spent to reach it (the run's wall-clock seconds to the rated generation,
as its trainer counts them in metrics.jsonl, times the cores the run had; for a run of the
older layout, its stages' seconds summed). Writes an SVG (matplotlib) and prints the points.

    usage: scripts/learning_curve.py METRICS_JSONL OUT.svg --cores N [--title TEXT]
                                     [--previous METRICS_JSONL ...]

METRICS_JSONL is a run's metrics.jsonl (or a copy of it, as lab/curves/ keeps);
`--previous` lists the metrics of the runs a warm-started run continued, oldest first, so
that their hours count too. Needs matplotlib (`pip install matplotlib`).
"""

import argparse
import json
import sys


def read_metrics(path):
    """The JSON records of a metrics file; lines that are not valid JSON are skipped."""
    records = []
    with open(path, "rb") as handle:
        for line in handle:
            try:
                records.append(json.loads(line.decode("utf-8")))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
    return records


def generation_of(name):
    """The generation in a record name such as `gen-00003` (None if there is none)."""
    if not name or not name.startswith("gen-"):
        return None
    return int(name[4:].split("-")[0])


def run_points(records, earlier):
    """(seconds, elo, low, high, generation) of each rating of one run whose roles ran at
    once: the seconds are the trainer's count when it made the rated candidate."""
    counted = {}
    for record in records:
        if record.get("role") == "trainer" and "run_seconds" in record:
            counted[generation_of(record.get("name"))] = float(record["run_seconds"])
    points = []
    for record in records:
        if record.get("role") == "gate" and "elo" in record:
            generation = record.get("candidate")
            seconds = earlier + counted.get(generation, max(counted.values(), default=0.0))
            points.append((seconds, record["elo"], record["elo_low"], record["elo_high"],
                           generation))
    return points, earlier + max(counted.values(), default=0.0)


def stage_points(records, earlier):
    """The same for a run of the older layout: its stages' seconds summed."""
    points, seconds = [], earlier
    for record in records:
        seconds += float(record.get("seconds") or 0.0)
        if "elo" in record:
            points.append((seconds, record["elo"], record["elo_low"], record["elo_high"],
                           record.get("generation")))
    return points, seconds


def curve(paths, cores):
    """(CPU-hours, elo, low, high, generation) of every rating in the chained runs."""
    points, seconds = [], 0.0
    for path in paths:
        records = read_metrics(path)
        read = run_points if any("role" in r for r in records) else stage_points
        found, seconds = read(records, seconds)
        points.extend(found)
    return [(s * cores / 3600.0, *rest) for s, *rest in points]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("metrics")
    parser.add_argument("out")
    parser.add_argument("--cores", type=float, required=True,
                        help="cores the run had (its CPU-hours = wall-clock hours x cores)")
    parser.add_argument("--title", default=None)
    parser.add_argument("--previous", nargs="*", default=[])
    args = parser.parse_args()
    if not args.cores > 0:
        sys.exit("--cores must be above 0")
    points = curve(args.previous + [args.metrics], args.cores)
    if not points:
        sys.exit(f"{args.metrics}: no ratings (the run rates every gate.rate_every generations)")
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    hours = [p[0] for p in points]
    elo = [p[1] for p in points]
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.fill_between(hours, [p[2] for p in points], [p[3] for p in points], alpha=0.25,
                      label="95% interval")
    axes.plot(hours, elo, marker="o", label="best net")
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("training CPU-hours (stage wall-clock x cores)")
    axes.set_ylabel("Elo (random = 0)")
    axes.set_title(args.title or args.metrics)
    axes.legend(loc="lower right")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(args.out, metadata={"Date": None})
    print("cpu_hours\telo\telo_low\telo_high\tgeneration")
    for point in points:
        print("\t".join(f"{x:.2f}" if isinstance(x, float) else str(x) for x in point))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
