#!/bin/bash
# adjacency, 2026-12-07: does O's play grow with training compute when self-play opens from
# random moves? The 2026-12-06 leg (lab/strength/adjacency-2026-12-06-random-openings-leg/,
# its config.toml: the shipped recipe with half the self-play games opening with 1 or 2
# random moves) kept O's margin against alphabeta:ms=100 level with the shipped model after
# 7,168 games from the shipped weights. The same config and start, trained on both cores
# to the 6 CPU-hour budget (1.6 times the leg's games), its best net at the end at the
# default setting against alphabeta:ms=100 on the openings of --seed 2 and 5.
# Run from the repository root with OXO a release build:
#   OXO=target/release/oxo lab/strength/adjacency-2026-12-07c-random-openings-longer/run.sh train RUN MINUTES
#   OXO=... run.sh export RUN GEN OUT   # RUN/models/GEN.bpk to OUT/GEN, its int8 graph recorded
#   OXO=... run.sh match OUT GEN        # OUT/GEN at its default against alphabeta:ms=100,
#                                       # one match a core at once
#   run.sh tally GEN...                 # summary.json: each GEN's result files beside the
#                                       # shipped model's rerun and the 2026-12-06 leg's, and
#                                       # game by game against each (summary.txt)
#   run.sh shares RUN                   # shares.txt: X's and O's share of self-play's wins
#                                       # in each quarter of the run's games
set -eu
# RECORD_DIR: the record folder export, match and tally write in and read results from
# (default: this one; a later record that matches and tallies its nets the same way names its
# own).
here=${RECORD_DIR:-$(dirname "$0")}
leg=lab/strength/adjacency-2026-12-06-random-openings-leg
case ${1-} in
train)
  OXO=$OXO exec lab/screen.sh train "$leg/config.toml" "$2" "$3" ;;
export | match)
  RECORD_DIR=$here exec "$leg/run.sh" "$@" ;;
tally)
  shift
  continuation=lab/strength/adjacency-2026-12-06-continuation
  pairs=(shipped-rerun-seed2-5 "$continuation/shipped-ab100-seed[25]-40.json")
  pairs+=(leg-gen-00111-seed2-5 "$leg/gen-00111-ab100-seed[25]-40.json")
  against=()
  for gen in "$@"; do
    pairs+=("$gen-seed2-5" "$here/$gen-ab100-seed[25]-40.json")
    against+=(--pair shipped-rerun-seed2-5 "$gen-seed2-5" --pair leg-gen-00111-seed2-5 "$gen-seed2-5")
  done
  python3 scripts/arena_tally.py --summary "$here/summary.json" "${against[@]}" "${pairs[@]}" \
    | tee "$here/summary.txt" ;;
shares)
  python3 scripts/selfplay_quarters.py "$2/metrics.jsonl" > "$here/shares.txt" ;;
*)
  echo "usage: $0 train RUN MINUTES | export RUN GEN OUT | match OUT GEN | tally GEN... | shares RUN" >&2
  exit 2 ;;
esac
