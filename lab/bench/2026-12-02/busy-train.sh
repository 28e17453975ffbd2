#!/usr/bin/env bash
# The cores' busy share (from /proc/stat, start-up included) over one `oxo train --variant
# VARIANT` as a user types it, for MINUTES minutes in a fresh run directory, then the games,
# training steps and gate decisions it made.
# Usage: lab/bench/2026-12-02/busy-train.sh OXO VARIANT MINUTES OUT_DIR
set -euo pipefail
oxo=$1 variant=$2 minutes=$3 out=$4
mkdir -p "$out"
source "$(dirname "$0")/measure.sh"
rm -rf "$out/run"
"$oxo" --version
git rev-parse HEAD
nproc
measure train "$oxo" train --variant "$variant" --run "$out/run" --minutes "$minutes"
python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
games = steps = gates = 0
for line in (out / "run/metrics.jsonl").read_text().splitlines():
    r = json.loads(line)
    if r.get("role") == "selfplay": games += r.get("games", 0)
    if r.get("role") == "trainer": steps += r.get("steps", 0)
    if r.get("role") == "gate": gates += 1
print(f"{games} games, {steps} training steps, {gates} gate decisions")
PY
