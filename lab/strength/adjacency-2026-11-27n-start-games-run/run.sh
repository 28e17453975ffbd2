#!/bin/bash
# adjacency, 2026-11-27: the shipped model's weights trained on with self-play that starts
# half its games inside the 98 recorded games a net lost as O to a handcrafted X, replayed
# to a random ply. config.toml is configs/adjacency.toml with learning_rate 0.0005 (a warm
# start, as in ../adjacency-2026-11-27c-selfplay-playouts-run/) and the games picked at
# 377d54f by
#   scripts/start_games.py --base configs/adjacency.toml --prob 0.5 --side o --agent net \
#     'lab/strength/adjacency*/**/*.json' 'lab/strength/adjacency*.json'
# 80 minutes on 2 cores; then device.sh matched the result on a lent machine.
# From the repository root, OXO a release build, ORT_DYLIB_PATH set to onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-27n-start-games-run/run.sh RUNDIR
set -eu
"$OXO" train --variant adjacency --config "$(dirname "$0")/config.toml" --run "$1" \
  --init models/adjacency/model.bpk --minutes 80
