#!/bin/bash
# adjacency, 2026-12-08: does O learn from games against another player? Under the shipped
# recipe and the 2026-12-06 leg's (random openings) more self-play made O's margin against
# alphabeta:ms=100 fall (lab/strength/adjacency-2026-12-06-continuation/,
# adjacency-2026-12-07c-random-openings-longer/). Here the leg's config with one change
# (config.toml: alphabeta:depth=3 plays X in half the self-play games, the net O, its moves
# no training targets), from the shipped weights, then its best net at the default setting
# against alphabeta:ms=100 on the openings of --seed 2 and 5, as the earlier records played.
# Run from the repository root with OXO a release build:
#   OXO=target/release/oxo lab/strength/adjacency-2026-12-08-alphabeta-opponent/run.sh train RUN MINUTES
#   OXO=... run.sh export RUN GEN OUT   # RUN/models/GEN.bpk to OUT/GEN, its int8 graph recorded
#   OXO=... run.sh match OUT GEN        # OUT/GEN at its default against alphabeta:ms=100,
#                                       # one match a core at once
#   run.sh tally GEN...                 # summary.json, summary.txt: each GEN's result files
#                                       # beside the shipped model's rerun and the leg's, and
#                                       # game by game against each
#   run.sh curve RUN                    # curve.txt: each quarter of the run's self-play games,
#                                       # the net's O against alphabeta:depth=3 among them
set -eu
here=$(dirname "$0")
case ${1-} in
train)
  OXO=$OXO exec lab/screen.sh train "$here/config.toml" "$2" "$3" ;;
export | match | tally)
  RECORD_DIR=$here exec lab/strength/adjacency-2026-12-07c-random-openings-longer/run.sh "$@" ;;
curve)
  python3 scripts/selfplay_quarters.py "$2/metrics.jsonl" | tee "$here/curve.txt" ;;
*)
  echo "usage: $0 train RUN MINUTES | export RUN GEN OUT | match OUT GEN | tally GEN... | curve RUN" >&2
  exit 2 ;;
esac
