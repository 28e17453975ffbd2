#!/usr/bin/env bash
# connect4: the shipped model (4.28 CPU-hours: a 2-core first run and a 1-core continuation,
# lab/strength/connect4-2026-12-03-continuation) trained on by `oxo train --variant connect4
# --init models/connect4/model.bpk` with this folder's config.toml for MINUTES minutes on both
# cores of this 2-core machine, then judged by eval.sh. The config is configs/connect4.toml
# with half of self-play's games opening with 1 or 2 random moves (random_opening_prob 0.5,
# random_opening_plies 2; no training targets for them), as the judge's own games and the
# matches against alphabeta open, where its self-play opened from the empty board; and the
# learning rate halved to 0.0005 for a warm start whose optimiser starts afresh.
# 50 minutes on 2 cores keeps the chain within 6 CPU-hours (3 hours on 2 cores).
# OLD is the model it started from (shipped before 2026-12-06; models/connect4/ now holds the
# leg's): `git archive bb09d49 models/connect4 | tar -x -C DIR` gives DIR/models/connect4/model.bpk,
# with the model.json beside it that sets its play.
# Run from the repository root:
#   lab/strength/connect4-2026-12-06-random-openings-leg/run.sh OXO MINUTES RUN OLD
set -euo pipefail
oxo=${1:-target/release/oxo}
minutes=${2:-50}
run=${3:-runs/connect4-random-openings-leg}
old=${4:?the model it started from (see above)}
here=lab/strength/connect4-2026-12-06-random-openings-leg

"$oxo" train --variant connect4 --config "$here/config.toml" --init "$old" \
  --run "$run" --minutes "$minutes"
cp "$run/metrics.jsonl" "$run/config.toml" "$run/run.json" "$run/warm_start.json" "$here/"
