#!/bin/bash
# adjacency, 2026-11-28: the shipped 4x32 net grown to 6x32 (`oxo grow --blocks 6`, the two
# new blocks silent), trained on with configs/adjacency.toml's recipe (config.toml: the same
# with net.blocks = 6) on the 16 cores of a lent GPU machine (an Intel Xeon; the GPU unused),
# 8 minutes and then 3.5 more (the same command resumed), then matched here on 2 cores.
# The commands, from the repository root, OXO a release build, ORT_DYLIB_PATH set:
set -eu
here=$(dirname "$0"); run=${1:-/tmp/adj-grown6}; out=${2:-$here}
"$OXO" grow --blocks 6 --out grown.bpk models/adjacency/model.bpk
"$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" --init grown.bpk --minutes 8
"$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" --minutes 3.5
# Matched at a fixed budget (1,000 PUCT simulations a move with the shipped model's recorded
# value), one match per core: against alphabeta:depth=3 on the openings of
# lab/strength/adjacency-2026-11-27b-sims1000-value-screens/base-seed*-20.json (where the
# shipped model went 35-1-4), then 10 paired games against the shipped model on each of
# two seeds; then at the default search (400 ms a move), one match per core, nothing else
# running; then the tally (lab/screen.sh's stages). The result files name the net as
# /work/runs/adj-grown6/models/best.bpk (generation 38; sha256 in models.sha256).
"$here/../../screen.sh" "net:path=$run/models/best.bpk" net:path=models/adjacency/model.bpk \
  "$out" depth3 h2h1000 timed tally
