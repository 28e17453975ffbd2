#!/bin/bash
# adjacency, 2026-11-28: the shipped model's weights trained on with self-play that searches
# about three times deeper (config.toml: configs/adjacency.toml with selfplay.simulations_full
# 200 and simulations_fast 32 instead of 64 and 16, and learning_rate 0.0005 for a warm start),
# 85 minutes on 2 cores, then matched. Run from the repository root with OXO a release build
# and ORT_DYLIB_PATH set to onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-28c-selfplay-sims200-run/run.sh RUNDIR OUTDIR
# The result files name the net by a copy, /work/exp/s24/s200-best.bpk (RUNDIR's
# models/best.bpk at the end of the run, generation 56).
set -eu
run=$1; out=$2
here=$(dirname "$0")
screen=$here/../../screen.sh
"$screen" train "$here/config.toml" "$run" 85
# At a fixed budget first (1,000 PUCT simulations a move with the recorded value, so the
# results do not depend on the machine's load; one match per core, at once): against
# alphabeta:depth=3 on the openings of
# lab/strength/adjacency-2026-11-27b-sims1000-value-screens/base-seed*-20.json, then 10
# paired games against the shipped model on each of two seeds. Then at the default search
# (400 ms a move), one match per core, at once: the first 40 openings against
# alphabeta:ms=100 (where the shipped model went 32-3-5), and 20 paired games against the
# shipped model. Then the tally (summary.json). The commands are lab/screen.sh's stages.
"$screen" "net:path=$run/models/best.bpk" net:path=models/adjacency/model.bpk "$out" \
  depth3 h2h1000 timed tally
