#!/bin/bash
# adjacency, 2026-11-27: where the default agent's games against alphabeta:ms=100 are lost.
# Two 24-game matches with the moves recorded (--seed 3 and 4, one per core, at once), then
# the exact result of the last 12 positions of every lost game (scripts/endgame_turns.py:
# alphabeta to the end of the game from each). Run from the repository root with OXO a
# release build and ORT_DYLIB_PATH set to onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves/run.sh OUTDIR
set -eu
out=$1; mkdir -p "$out"
net=net:search=puct,ms=400,score=1,rollouts=16,mix=0.75
for core in 0 1; do
  seed=$((core + 3))
  taskset -c "$core" "$OXO" arena --variant adjacency --agents "alphabeta:ms=100,$net" \
    --games 24 --threads 1 --seed "$seed" --out "$out/moves-ab100-seed$seed-24" &
done
wait
for seed in 3 4; do
  scripts/endgame_turns.py "$OXO" "$out/moves-ab100-seed$seed-24.json" --plies 12 --depth 12 \
    > "$out/endgame-seed$seed-12plies.txt"
done
scripts/arena_tally.py --summary "$out/summary.json" "both seeds" "$out/moves-ab100-seed*-24.json"
