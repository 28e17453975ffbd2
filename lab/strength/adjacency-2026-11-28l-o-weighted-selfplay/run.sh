#!/bin/bash
# adjacency, 2026-11-28: self-play weighted towards O, the side whose games
# against alphabeta are lost. The shipped net (1.68 CPU-hours) trained on with 28j's recipe
# (playouts in self-play, learning rate 0.0005) except that O's moves get a full search, a
# training sample, with probability 0.6 and X's with 0.15 (selfplay.full_search_prob_o, new;
# both were 0.25). Stages, from the repository root with OXO a release build and
# ORT_DYLIB_PATH set to onnxruntime's library:
#   train RUNDIR:  90 minutes on 2 cores (3.0 CPU-hours; 4.68 with the shipped net's)
#   match NET OUTDIR:  the default setting against alphabeta:ms=100 on the first 40 paired
#     openings (core 0) and on --seed 2's 40 (core 1), where the shipped model went 32-3-5
#     and 30-2-8 (as O +0.65 and +0.25 points a game)
#   ab500 NET OUTDIR:  at equal time against alphabeta:ms=500, seeds 1 and 2, 20 paired games
#     each (one per core), where the shipped model went 30-3-7
# NET was the run's last generation, /work/runs/adj-ow/models/gen-00095.bpk, the same bytes
# as gen-00095.bpk here (models.sha256); summary.json is scripts/arena_tally.py's tally.
set -eu
here=$(dirname "$0")
case $1 in
train)
  "$here/../../screen.sh" train "$here/config.toml" "$2" 90 ;;
match|ab500)
  # The 28k folder's stages of these names, line for line the commands these results came
  # from (they ran from a copy here, removed as a duplicate afterwards).
  exec "$here/../adjacency-2026-11-28k-average-continuation/run.sh" "$@" ;;
*)
  echo "usage: $0 train RUNDIR | match NET OUTDIR | ab500 NET OUTDIR" >&2
  exit 2 ;;
esac
