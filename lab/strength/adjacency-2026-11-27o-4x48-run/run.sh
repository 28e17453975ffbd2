#!/bin/bash
# adjacency, 2026-11-27: a fresh run of configs/adjacency.toml with a 4x48 trunk instead of
# 4x32 (config.toml; nothing else changed), the larger net named as the next step in the
# README: 2.1x the 4x32 net's time an evaluation on one core
# (lab/engines/adjacency-net-sizes-onnxruntime-1core.txt). 105 minutes on 2 cores.
# From the repository root, OXO a release build, ORT_DYLIB_PATH set to onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-27o-4x48-run/run.sh RUNDIR
set -eu
"$OXO" train --variant adjacency --config "$(dirname "$0")/config.toml" --run "$1" --minutes 105
