#!/usr/bin/env bash
# connect4's shipped model played on its int8 graph (lab/engines/connect4-int8.onnx, made by
# `scripts/quantize_int8.py DIR OUT` on OLD's folder) at 480 ms a move, against its default (fp32,
# 400 ms), two jobs at once on a 2-core machine, one core each: on core 0, 100 paired games of
# the int8 setting against alphabeta:ms=100 from 2-ply random openings (the openings of the
# 2026-12-03 record, 64-14-22 for the default); on core 1, both settings judged by the exact
# solver on the positions of seed 2 (200 random positions, every move of 8 own games after 2
# random moves, plies 4 to 30, 4 games as X against `solver`). Seed 1's judgements (the
# positions of every earlier connect4 record) are judge-seed1.sh's.
# The recorded match ran with the int8 graph and ms=480 written into models/connect4/model.json
# for the run (`oxo export --search search=puct,ms=480`, `quantize_int8.py --record`), which
# resolves to the same setting as the spec below (the result file's `plays_with`).
# OLD is the model these judge (shipped before 2026-12-06; models/connect4/ now holds the
# random-openings leg's): `git archive bb09d49 models/connect4 | tar -x -C DIR` gives DIR/models/connect4/model.bpk,
# with the model.json beside it that sets its play.
# Run from the repository root: lab/strength/connect4-2026-12-06-int8-ms480/run.sh OXO OLD
set -euo pipefail
oxo=${1:-target/release/oxo}
here=lab/strength/connect4-2026-12-06-int8-ms480
model=${2:?the model judged (see above)}
int8="net:path=$model,ms=480,onnx=lab/engines/connect4-int8.onnx"

taskset -c 0 "$oxo" arena --variant connect4 --agents "$int8,alphabeta:ms=100" \
  --games 100 --threads 1 --out "$here/int8-ms480-vs-alphabeta-ms100-100games" &
(
  for pair in "int8-ms480 $int8" "fp32-ms400 net:path=$model"; do
    set -- $pair
    taskset -c 1 "$oxo" judge --variant connect4 --agent "$2" --seed 2 --random-positions 200 \
      --own-games 8 --first-games 4 --out "$here/judge-seed2-$1.json"
  done
)
wait
