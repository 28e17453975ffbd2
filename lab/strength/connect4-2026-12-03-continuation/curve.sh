#!/usr/bin/env bash
# The learning curve of connect4's continuation: checkpoints of RUN (generations 50, 100, 150
# and 200) judged by the exact solver at the default setting, as the first model's curve.sh
# judged its checkpoints (60 positions reached by random moves, seed 1, and every move of 2
# games against itself, plies 4 to 30), one core.
# Run from the repository root: lab/strength/connect4-2026-12-03-continuation/curve.sh OXO RUN
set -euo pipefail
oxo=${1:-target/release/oxo}
run=${2:-runs/connect4-continuation}
here=lab/strength/connect4-2026-12-03-continuation
for gen in 00050 00100 00150 00200; do
  "$oxo" judge --variant connect4 --agent "net:path=$run/models/gen-$gen.bpk" \
    --random-positions 60 --own-games 2 --first-games 0 --out "$here/judge-gen-$gen.json"
done
