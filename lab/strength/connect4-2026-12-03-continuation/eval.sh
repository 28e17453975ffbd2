#!/usr/bin/env bash
# A connect4 model at its default setting (net, one core), two jobs at once on this 2-core
# machine: its moves judged by the exact solver on positions at plies 4 to 30 (200 reached by
# random moves, and every move of 8 games against itself) and 4 games as X against `solver`;
# and 100 paired games against alphabeta:ms=100 from 2-ply random openings. The same
# positions (seed 1) as the first model's eval.sh.
# Run from the repository root: lab/strength/connect4-2026-12-03-continuation/eval.sh OXO MODEL NAME
set -euo pipefail
oxo=${1:-target/release/oxo}
model=${2:-models/connect4/model.bpk}
name=${3:-default}
here=lab/strength/connect4-2026-12-03-continuation

"$oxo" arena --variant connect4 --agents "net:path=$model,alphabeta:ms=100" --games 100 \
  --threads 1 --out "$here/$name-vs-alphabeta-ms100-100games" &
"$oxo" judge --variant connect4 --agent "net:path=$model" --random-positions 200 \
  --own-games 8 --first-games 4 --out "$here/judge-$name.json"
wait
