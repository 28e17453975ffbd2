#!/usr/bin/env bash
# connect4's second model: the first model (models/connect4/, 2.17 CPU-hours) trained on by
# `oxo train --variant connect4 --init models/connect4/model.bpk` for MINUTES minutes on one
# core of this 2-core machine (`--threads 1`, pinned to core 0; the other core ran the test
# suite and the checkpoints' judging), exported to models/connect4/.
# Run from the repository root: lab/strength/connect4-2026-12-03-continuation/run.sh OXO MINUTES
set -euo pipefail
oxo=${1:-target/release/oxo}
minutes=${2:-125}
here=lab/strength/connect4-2026-12-03-continuation
run=runs/connect4-continuation

taskset -c 0 "$oxo" train --variant connect4 --init models/connect4/model.bpk --run "$run" \
  --threads 1 --minutes "$minutes"
cp "$run/metrics.jsonl" "$run/config.toml" "$run/run.json" "$run/warm_start.json" "$here/"
