#!/usr/bin/env bash
# connect4's shipped model judged by the exact solver on seed 1's positions (those of every
# earlier connect4 record) at five settings: fp32 at 400 (the default), 800 and 1600 ms a move,
# and the int8 graph at 400 and 480 ms; two judges at once, one a core, in the pairs below.
# OLD is the model these judge (shipped before 2026-12-06; models/connect4/ now holds the
# random-openings leg's): `git archive bb09d49 models/connect4 | tar -x -C DIR` gives DIR/models/connect4/model.bpk,
# with the model.json beside it that sets its play.
# Run from the repository root: lab/strength/connect4-2026-12-06-int8-ms480/judge-seed1.sh OXO OLD
set -euo pipefail
oxo=${1:-target/release/oxo}
here=lab/strength/connect4-2026-12-06-int8-ms480
model=${2:?the model judged (see above)}
int8=lab/engines/connect4-int8.onnx

judge() { # CORE NAME SPEC
  taskset -c "$1" "$oxo" judge --variant connect4 --agent "$3" --random-positions 200 \
    --own-games 8 --first-games 4 --out "$here/judge-seed1-$2.json"
}
judge 0 fp32-ms400 "net:path=$model,ms=400" & judge 1 fp32-ms800 "net:path=$model,ms=800"; wait
judge 0 fp32-ms1600 "net:path=$model,ms=1600" & judge 1 int8-ms400 "net:path=$model,ms=400,onnx=$int8"
wait
judge 1 int8-ms480 "net:path=$model,ms=480,onnx=$int8"
