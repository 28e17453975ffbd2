#!/usr/bin/env bash
# The cores' busy share over an `oxo train` run on this machine, from /proc/stat, for the
# one-machine pipeline (`--run DIR`, stages in turn) and for the store run with every role at
# once (`--run file://DIR`: trainer, gate and self-play on their own threads), each for
# MINUTES minutes of the same variant; then the games and training samples each made.
# Usage: lab/bench/2026-12-02/busy.sh OXO VARIANT MINUTES OUT_DIR
set -euo pipefail
oxo=$1 variant=$2 minutes=$3 out=$4
mkdir -p "$out"
source "$(dirname "$0")/measure.sh"
rm -rf "$out/dir-run" "$out/store-run"
measure pipeline "$oxo" train --variant "$variant" --run "$out/dir-run" --minutes "$minutes"
measure all-roles "$oxo" train --variant "$variant" --run "file://$out/store-run" --minutes "$minutes"
python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
games = steps = 0
for line in (out / "dir-run/metrics.jsonl").read_text().splitlines():
    r = json.loads(line)
    if r.get("stage") == "selfplay": games += r.get("games", 0)
    if r.get("stage") == "train": steps += r.get("steps", 0)
print(f"pipeline: {games} games, {steps} training steps")
games = sum(json.loads(p.read_text())["body"].get("games", 0)
            for p in (out / "store-run/metrics/selfplay").glob("*.json"))
steps = sum(json.loads(p.read_text())["body"].get("steps", 0)
            for p in (out / "store-run/metrics/trainer").glob("*.json"))
print(f"all-roles: {games} games, {steps} training steps")
PY
