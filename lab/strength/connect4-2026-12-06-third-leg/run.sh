#!/usr/bin/env bash
# connect4's third leg: the shipped model (4.28 CPU-hours: a 2-core first run and a 1-core
# continuation, lab/strength/connect4-2026-12-03-continuation) trained on by `oxo train
# --variant connect4 --init models/connect4/model.bpk` with this folder's config.toml
# (configs/connect4.toml with 128 simulations in a full self-play search instead of 64: deeper
# searches for the policy targets of the opening, where the misses were, at the price of fewer
# games) for MINUTES minutes on both cores of this 2-core machine, then judged by eval.sh.
# 50 minutes on 2 cores keeps the chain within 6 CPU-hours (3 hours on 2 cores; cost.txt).
# OLD is the model it started from (shipped 2026-12-03 to 2026-12-06; models/connect4/ now holds
# a later one): `git archive bb09d49 models/connect4 | tar -x -C DIR` gives
# DIR/models/connect4/model.bpk, with the model.json beside it that sets its play.
# Run from the repository root: lab/strength/connect4-2026-12-06-third-leg/run.sh OXO MINUTES RUN OLD
set -euo pipefail
oxo=${1:-target/release/oxo}
minutes=${2:-50}
run=${3:-runs/connect4-third-leg}
old=${4:?the model it started from (see above)}
here=lab/strength/connect4-2026-12-06-third-leg

"$oxo" train --variant connect4 --config "$here/config.toml" --init "$old" \
  --run "$run" --minutes "$minutes"
cp "$run/metrics.jsonl" "$run/config.toml" "$run/run.json" "$run/warm_start.json" "$here/"
