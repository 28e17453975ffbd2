#!/usr/bin/env bash
# The shipped ultimate model with a draw worth DRAW to it (`net:draw=DRAW`, everything else
# its model.json's, at MS milliseconds a move; `default` for the default agent's 400) against
# OPPONENT, GAMES paired games from 2-ply random openings of seed SEED, on core CORE.
# Run from the repository root:
#   lab/strength/ultimate-2026-12-07-draw-value/run.sh OXO CORE DRAW MS OPPONENT GAMES SEED
# e.g. run.sh target/release/oxo 0 -0.3 500 uct:ms=500 20 1
set -euo pipefail
oxo=$1 core=$2 draw=$3 ms=$4 opponent=$5 games=$6 seed=$7
here=lab/strength/ultimate-2026-12-07-draw-value
if [ "$ms" = default ]; then net="net:draw=$draw" name="default"; else
  net="net:ms=$ms,draw=$draw" name="net-ms$ms"; fi
taskset -c "$core" "$oxo" arena --variant ultimate --agents "$net,$opponent" --games "$games" \
  --seed "$seed" --threads 1 \
  --out "$here/$name-draw$draw-vs-${opponent//[:=]/-}-${games}games-seed$seed"
