#!/usr/bin/env bash
# `oxo train --variant VARIANT` as a user types it, before and after its roles ran at once:
# OLD (an oxo whose `oxo train --run DIR` ran its stages one after another) and NEW (every
# role at once), each for MINUTES minutes on this machine, one after the other. Prints the
# cores' busy share of each (from /proc/stat), the games and training steps each made and
# the new run's gate decisions, then plays the two runs' best nets against each other in
# paired games (both colours, 2-ply random openings) at a fixed search, NEW's arena.
# Usage: lab/bench/2026-12-02/one-pipeline.sh OLD_OXO NEW_OXO VARIANT MINUTES GAMES OUT_DIR
set -euo pipefail
old=$1 new=$2 variant=$3 minutes=$4 games=$5 out=$6
mkdir -p "$out"
source "$(dirname "$0")/measure.sh"
rm -rf "$out/old-run" "$out/new-run"
"$new" --version
git rev-parse HEAD
measure old "$old" train --variant "$variant" --run "$out/old-run" --minutes "$minutes"
measure new "$new" train --variant "$variant" --run "$out/new-run" --minutes "$minutes"
python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
for run in ("old-run", "new-run"):
    games = steps = 0
    gates = []
    for line in (out / run / "metrics.jsonl").read_text().splitlines():
        r = json.loads(line)
        kind = r.get("stage") or r.get("role")
        if kind == "selfplay": games += r.get("games", 0)
        if kind in ("train", "trainer"): steps += r.get("steps", 0)
        if kind == "gate": gates.append((r.get("candidate"), r.get("reason"), r.get("promoted")))
    print(f"{run}: {games} games, {steps} training steps, {len(gates)} gate decisions: {gates}")
PY
spec() { echo "net:path=$out/$1/models/best.bpk,sims=128"; }
"$new" arena --variant "$variant" --agents "$(spec old-run),$(spec new-run)" --games "$games" \
  --out "$out/old-vs-new" | tail -8
