#!/usr/bin/env bash
# After eval.sh: the leg's model (NEW) against the shipped one, 80 paired games at the default
# setting from the 2-ply random openings of seeds 1 to 4 (20 games each), and the shipped model
# against alphabeta:ms=100 on this machine on eval.sh's openings, for a same-machine pair with
# the leg's match. Seeds 1 and 2 ran at once, one a core; then the shipped model's match on
# core 0 while seeds 3 and 4 ran one after the other on core 1.
# OLD is the model it started from (shipped before 2026-12-06; models/connect4/ now holds the
# leg's): `git archive bb09d49 models/connect4 | tar -x -C DIR` gives DIR/models/connect4/model.bpk,
# with the model.json beside it that sets its play.
# Run from the repository root:
#   lab/strength/connect4-2026-12-06-random-openings-leg/compare.sh OXO NEW OLD
set -euo pipefail
oxo=${1:-target/release/oxo}
new=$2
shipped=${3:?the model it started from (see above)}
here=lab/strength/connect4-2026-12-06-random-openings-leg

head_to_head() { # CORE SEED
  taskset -c "$1" "$oxo" arena --variant connect4 --agents "net:path=$new,net:path=$shipped" \
    --games 20 --seed "$2" --threads 1 --out "$here/leg-vs-shipped-20games-seed$2"
}
head_to_head 0 1 & head_to_head 1 2; wait
taskset -c 0 "$oxo" arena --variant connect4 --agents "net:path=$shipped,alphabeta:ms=100" \
  --games 100 --threads 1 --out "$here/shipped-vs-alphabeta-ms100-100games" &
head_to_head 1 3; head_to_head 1 4; wait
