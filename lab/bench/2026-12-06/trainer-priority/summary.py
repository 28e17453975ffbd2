#!/usr/bin/env python3
"""The table of run.sh's runs: wall time, CPU, and each role's work, from `/usr/bin/time -v`
and each run's metrics.jsonl.

    python3 summary.py OUT
"""
import json
import re
import sys
from pathlib import Path

out = Path(sys.argv[1])
print("run | wall s | CPU s (busy cores) | trainer steps | trainer busy s | self-play games | self-play busy s | gate games | gate busy s")
for config in ("trainer-bound", "shipped"):
    for which in ("old", "new"):
        name = f"{config}-{which}"
        time = (out / f"{name}.time").read_text()
        wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", time).group(1)
        parts = [float(p) for p in wall.split(":")]
        wall_s = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
        cpu = sum(float(re.search(rf"{k} time \(seconds\): (\S+)", time).group(1)) for k in ("User", "System"))
        steps = games = gate_games = 0
        busy = {"trainer": 0.0, "selfplay": 0.0, "gate": 0.0}
        for line in (out / name / "metrics.jsonl").read_text().splitlines():
            record = json.loads(line)
            role = record.get("role")
            if role in busy:
                busy[role] += record.get("seconds", 0.0)
            if role == "trainer":
                steps += record.get("steps", 0)
            elif role == "selfplay":
                games += record.get("games", 0)
            elif role == "gate":
                gate_games += record.get("games", 0)
        print(f"{name} | {wall_s:.0f} | {cpu:.0f} ({cpu / wall_s:.2f}) | {steps} | {busy['trainer']:.0f} | "
              f"{games} | {busy['selfplay']:.0f} | {gate_games} | {busy['gate']:.0f}")
