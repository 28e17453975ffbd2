#!/bin/bash
# adjacency, 2026-12-06: does self-play from random openings stop O's decline? The shipped
# recipe continued from the shipped model's weights, every role at once on both cores, made
# O's margin against alphabeta:ms=100 fall by 6 points a game in 65 minutes
# (lab/strength/adjacency-2026-12-06-continuation/). The same start, with half the
# self-play games opening with 1 or 2 random moves (config.toml here: the one change), then
# its best net at the default setting against alphabeta:ms=100 on the openings of --seed 2
# and 5, where the continuation's nets and a rerun of the shipped model played. Run from the
# repository root with OXO a release build:
#   OXO=target/release/oxo lab/strength/adjacency-2026-12-06-random-openings-leg/run.sh train RUN MINUTES
#   run.sh watch RUN GEN                # beside train: stops it (SIGINT; a run resumes after
#                                       # any kill) once the gate has decided GEN; here 112,
#                                       # the continuation's games (stopped.txt: when)
#   OXO=... run.sh export RUN GEN OUT   # RUN/models/GEN.bpk to OUT/GEN, its int8 graph recorded
#   OXO=... run.sh match OUT GEN        # OUT/GEN at its default against alphabeta:ms=100,
#                                       # one match a core at once
#   run.sh tally GEN...                 # summary.json: each GEN's result files beside the
#                                       # shipped model's and the continuation's
set -eu
# RECORD_DIR: the record folder its commands write in and read results from (default: this
# one; a later record that exports and matches its nets the same way names its own). The
# config is always this folder's.
here=${RECORD_DIR:-$(dirname "$0")}
case ${1-} in
train)
  OXO=$OXO exec lab/screen.sh train "$(dirname "$0")/config.toml" "$2" "$3" ;;
watch)
  gate=$(printf '%s/gate/gen-%05d.json' "$2" "$3")
  while [ ! -e "$gate" ]; do sleep 5; done
  pkill -INT -f "train --variant adjacency --config $here/config.toml --run $2" || true
  date -u +%FT%TZ > "$here/stopped.txt" ;;
export)
  # As the continuation exported its nets (the default search and value, the int8 graph
  # recorded), the checksums written here.
  RECORD_DIR=$here exec lab/strength/adjacency-2026-12-06-continuation/run.sh "$@" ;;
match)
  out=$2 gen=$3
  for seed in 2 5; do
    echo "$gen-ab100-seed$seed-40 alphabeta:ms=100,net:path=$out/$gen/model.bpk 40 $seed"
  done | scripts/arena_queue.sh adjacency "$here" 0,1 ;;
tally)
  shift
  continuation=lab/strength/adjacency-2026-12-06-continuation
  pairs=(shipped-rerun-seed2-5 "$continuation/shipped-ab100-seed[25]-40.json")
  pairs+=(continuation-gen-00111-seed2-5 "$continuation/gen-00111-ab100-seed[25]-40.json")
  for gen in "$@"; do pairs+=("$gen-seed2-5" "$here/$gen-ab100-seed[25]-40.json"); done
  python3 scripts/arena_tally.py --summary "$here/summary.json" "${pairs[@]}" ;;
*)
  echo "usage: $0 train RUN MINUTES | watch RUN GEN | export RUN GEN OUT | match OUT GEN | tally GEN..." >&2
  exit 2 ;;
esac
