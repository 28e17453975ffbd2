#!/bin/bash
# adjacency, 2026-11-27: how much moving first is worth under strong play on both sides.
# Each agent plays a copy of itself (the copy differs by seed=2: alphabeta's tie-breaks, the
# net's playouts) on the arena's paired random openings, one core to itself:
#   alphabeta:ms=100 against itself, 100 games (about 12 s a game);
#   alphabeta:ms=500 against itself, 30 games (about 60 s a game), then 16 more on each of
#   --seed 2 and 3 (one core each);
#   the default agent (the shipped model, search=puct,ms=400 with the value its model.json
#   records) against itself, 20 games (about 48 s a game).
# The tally (scripts/arena_tally.py, agent 0) splits the first copy's record by side; X won
# its wins as X and its losses as O: alphabeta:ms=100 X 75, O 17, drawn 8 (X scores 79%);
# alphabeta:ms=500 X 45, O 13, drawn 4 in 62 (76%); the default agent X 16, O 2, drawn 2 (85%).
# Run from the repository root with OXO a release build and ORT_DYLIB_PATH set to
# onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-27f-first-move-advantage/run.sh OUTDIR
set -eu
out=$1; mkdir -p "$out"
taskset -c 0 "$OXO" arena --variant adjacency --agents "alphabeta:ms=100,alphabeta:ms=100,seed=2" \
  --games 100 --threads 1 --out "$out/ab100-vs-ab100-100games"
taskset -c 0 "$OXO" arena --variant adjacency --agents "alphabeta:ms=500,alphabeta:ms=500,seed=2" \
  --games 30 --threads 1 --out "$out/ab500-vs-ab500-30games"
for seed in 2 3; do
  taskset -c $((seed - 2)) "$OXO" arena --variant adjacency \
    --agents "alphabeta:ms=500,alphabeta:ms=500,seed=2" --games 16 --threads 1 --seed $seed \
    --out "$out/ab500-vs-ab500-16games-seed$seed" &
done
wait
taskset -c 0 "$OXO" arena --variant adjacency \
  --agents "net:search=puct,ms=400,net:search=puct,ms=400,seed=2" \
  --games 20 --threads 1 --out "$out/net-vs-net-ms400-20games"
scripts/arena_tally.py --agent 0 --summary "$out/summary.json" \
  alphabeta-ms100-self "$out/ab100-vs-ab100-100games.json" \
  alphabeta-ms500-self "$out/ab500-vs-ab500-*.json" \
  default-self "$out/net-vs-net-ms400-20games.json"
# 2026-11-27, later: alphabeta:ms=500 against alphabeta:ms=100, 40 paired games on one core
# (how a stronger handcrafted O fares against alphabeta:ms=100 as X).
taskset -c 1 "$OXO" arena --variant adjacency --agents alphabeta:ms=100,alphabeta:ms=500 \
  --games 40 --threads 1 --out "$out/ab500-vs-ab100-40"
scripts/arena_tally.py --agent 1 --summary "$out/summary-ab500-vs-ab100.json" \
  alphabeta-ms500-vs-ms100 "$out/ab500-vs-ab100-40.json"
