#!/bin/bash
# adjacency, 2026-11-28: self-play whose Gumbel root noise stops after the first 30 moves
# (`selfplay.gumbel_noise_moves = 30`; the shipped run had it on all 119), so that the last
# 89 moves of every game are the search's best and the final margins, the score head's
# targets, come from play rather than from exploration noise. config.toml is
# configs/adjacency.toml with that and the learning rate of the earlier warm starts (0.0005).
# The shipped weights were trained on with it on 2 cores for 50 minutes (68 generations,
# 4,416 games, 2,947 s of stages: 1.64 CPU-hours, 3.32 with the shipped run), then matched.
# The run's binary was commit ac3e838 with ../adjacency-2026-11-28f-implicit-minimax's
# change (not merged, described in docs/experiments.md, "xando and adjacency", item
# "Implicit minimax backups in the play-time search"; inert at its default weight 0:
# training never reads it). The result files
# name generation 68 by a copy, /work/exp/s26/noise30/gen68.bpk (sha256 in models.sha256).
# From the repository root, OXO a release build, ORT_DYLIB_PATH set:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-28g-noise-opening-only-run/run.sh RUN OUT
set -eu
here=$(dirname "$0"); run=$1; out=$2
screen=$here/../../screen.sh
"$screen" train "$here/config.toml" "$run" 50
# At the default search (400 ms a move), one match per core, at once, nothing else running:
# the first 40 openings against alphabeta:ms=100 (where the shipped model went 32-3-5), and
# 20 paired games against the shipped model; then the tally (lab/screen.sh's stages).
"$screen" "net:path=$run/models/best.bpk" net:path=models/adjacency/model.bpk "$out" timed tally
