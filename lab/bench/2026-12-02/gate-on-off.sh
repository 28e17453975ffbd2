#!/usr/bin/env bash
# A gated run against an ungated one at equal wall-clock on this machine: `oxo train
# --variant VARIANT` with its built-in config (the gate on, `gate.mode = "sprt"`) and the
# same config with `gate.mode = "always"` (every candidate promoted), each for MINUTES
# minutes, one after the other; prints the gate's decisions, then plays the two runs' best
# nets against each other in paired games (both colours, 2-ply random openings).
# Usage: lab/bench/2026-12-02/gate-on-off.sh OXO VARIANT MINUTES GAMES OUT_DIR
set -euo pipefail
oxo=$1 variant=$2 minutes=$3 games=$4 out=$5
mkdir -p "$out"
rm -rf "$out/gated" "$out/ungated"
"$oxo" --version
git rev-parse HEAD
"$oxo" train --variant "$variant" --print-config | sed 's/^mode = "sprt"/mode = "always"/' \
  > "$out/ungated.toml"
grep -q '^mode = "always"' "$out/ungated.toml"
"$oxo" train --variant "$variant" --run "$out/gated" --minutes "$minutes" > "$out/gated.log" 2>&1
"$oxo" train --variant "$variant" --run "$out/ungated" --config "$out/ungated.toml" \
  --minutes "$minutes" > "$out/ungated.log" 2>&1
python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
for run in ("gated", "ungated"):
    records = [json.loads(l) for l in (out / run / "metrics.jsonl").read_text().splitlines()]
    gates = [(r["candidate"], r["reason"], r["wins"], r["draws"], r["losses"], r["promoted"])
             for r in records if r.get("role") == "gate"]
    games = sum(r.get("games", 0) for r in records if r.get("role") == "selfplay")
    print(f"{run}: {games} games; gate (candidate, reason, W, D, L, promoted): {gates}")
PY
spec() { echo "net:path=$out/$1/models/best.bpk,sims=128"; }
"$oxo" arena --variant "$variant" --agents "$(spec ungated),$(spec gated)" --games "$games" \
  --out "$out/ungated-vs-gated" | tail -8
