#!/usr/bin/env bash
# The third leg's model against the shipped one, at the default setting (net, PUCT at 400 ms
# a move, one core), two jobs at once on this 2-core machine: on core 0, 100 paired games of
# NEW against alphabeta:ms=100 from 2-ply random openings; on core 1, both models judged by
# the exact solver on the positions of the earlier eval.sh (seed 1: 200 reached by random
# moves, every move of 8 games against itself, plies 4 to 30; 4 games as X against
# `solver`), then 40 paired games of NEW against OLD.
# OLD is the model it started from (shipped 2026-12-03 to 2026-12-06; models/connect4/ now holds
# a later one): `git archive bb09d49 models/connect4 | tar -x -C DIR` gives
# DIR/models/connect4/model.bpk, with the model.json beside it that sets its play.
# Run from the repository root: lab/strength/connect4-2026-12-06-third-leg/eval.sh OXO NEW OLD
set -euo pipefail
oxo=${1:-target/release/oxo}
new=$2
old=${3:?the model it started from (see above)}
here=lab/strength/connect4-2026-12-06-third-leg

taskset -c 0 "$oxo" arena --variant connect4 --agents "net:path=$new,alphabeta:ms=100" \
  --games 100 --threads 1 --out "$here/third-leg-vs-alphabeta-ms100-100games" &
(
  for pair in "third-leg $new" "shipped-here $old"; do
    set -- $pair
    taskset -c 1 "$oxo" judge --variant connect4 --agent "net:path=$2" --random-positions 200 \
      --own-games 8 --first-games 4 --out "$here/judge-$1.json"
  done
  taskset -c 1 "$oxo" arena --variant connect4 --agents "net:path=$new,net:path=$old" \
    --games 40 --threads 1 --out "$here/third-leg-vs-shipped-40games"
)
wait
