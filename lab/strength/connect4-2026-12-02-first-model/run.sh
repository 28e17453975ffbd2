#!/usr/bin/env bash
# connect4's first model: `oxo train --variant connect4` as typed (configs/connect4.toml),
# for MINUTES minutes on this 2-core machine (AMD EPYC Zen 4), exported to models/connect4/,
# then judged by the exact solver at the default setting and matched against the ladder.
# Run from the repository root: lab/strength/connect4-2026-12-02-first-model/run.sh OXO MINUTES
set -euo pipefail
oxo=${1:-target/release/oxo}
minutes=${2:-65}
here=lab/strength/connect4-2026-12-02-first-model
run=runs/connect4

"$oxo" train --variant connect4 --minutes "$minutes"
cp "$run/metrics.jsonl" "$run/config.toml" "$run/run.json" "$here/"
"$oxo" export --model "$run/models/best.bpk" --out models/connect4
"$here/eval.sh" "$oxo"
