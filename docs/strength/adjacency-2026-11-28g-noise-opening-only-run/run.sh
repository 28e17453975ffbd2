#!/bin/bash
# adjacency, 2026-11-28: self-play whose Gumbel root noise stops after the first 30 moves
# (`selfplay.gumbel_noise_moves = 30`; the shipped run had it on all 119), so that the last
# 89 moves of every game are the search's best and the final margins, the score head's
# targets, come from play rather than from exploration noise. config.toml is
# configs/adjacency.toml with that and the learning rate of the earlier warm starts (0.0005).
# The shipped weights were trained on with it on 2 cores for 50 minutes (68 generations,
# 4,416 games, 2,947 s of stages: 1.64 CPU-hours, 3.32 with the shipped run), then matched.
# The run's binary was commit ac3e838 with ../adjacency-2026-11-28f-implicit-minimax's
# patch applied (inert at its default weight 0: training never reads it). The result files
# name generation 68 by a copy, /work/exp/s26/noise30/gen68.bpk (sha256 in models.sha256).
# From the repository root, OXO a release build, ORT_DYLIB_PATH set:
#   OXO=target/release/oxo docs/strength/adjacency-2026-11-28g-noise-opening-only-run/run.sh RUN OUT
set -eu
here=$(dirname "$0"); run=$1; out=$2; mkdir -p "$out"
"$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" \
  --init models/adjacency/model.bpk --minutes 50
new=net:path=$run/models/best.bpk
shipped=net:path=models/adjacency/model.bpk
# At the default search (400 ms a move), one match per core, at once, nothing else running:
# the first 40 openings against alphabeta:ms=100 (where the shipped model went 32-3-5), and
# 20 paired games against the shipped model.
timed=search=puct,ms=400,score=1,rollouts=16,mix=0.75
taskset -c 0 "$OXO" arena --variant adjacency --agents "alphabeta:ms=100,$new,$timed" --games 40 \
  --threads 1 --out "$out/new-ab100-40" &
taskset -c 1 "$OXO" arena --variant adjacency --agents "$shipped,$timed,$new,$timed" --games 20 \
  --threads 1 --out "$out/new-vs-shipped-20" &
wait
scripts/arena_tally.py --agent 1 --summary "$out/summary.json" \
  "alphabeta:ms=100, 400 ms" "$out/new-ab100-40.json" \
  "against the shipped model, 400 ms" "$out/new-vs-shipped-20.json"
