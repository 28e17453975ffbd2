#!/usr/bin/env bash
# The learning curve of connect4's first run: checkpoints of runs/connect4 (generations 25,
# 50, 100 and 200) judged by the exact solver at the shipped model's default setting (60
# positions reached by random moves and every move of 2 games against itself, plies 4 to
# 30), one core. The last point is the shipped model's own judge-default.json.
# Run from the repository root after run.sh: lab/strength/connect4-2026-12-02-first-model/curve.sh OXO
set -euo pipefail
oxo=${1:-target/release/oxo}
here=lab/strength/connect4-2026-12-02-first-model
for gen in 00025 00050 00100 00200; do
  "$oxo" judge --variant connect4 --agent "net:path=runs/connect4/models/gen-$gen.bpk" \
    --random-positions 60 --own-games 2 --first-games 0 --out "$here/judge-gen-$gen.json"
done
