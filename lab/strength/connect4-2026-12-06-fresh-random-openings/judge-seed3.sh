#!/usr/bin/env bash
# The fresh run's model (NEW) and the shipped one judged on one more seed's positions (seed 3,
# as eval.sh's judge: 200 random positions, 8 own games, 4 games as X against `solver`), one
# after the other on core 1.
# Run from the repository root: lab/strength/connect4-2026-12-06-fresh-random-openings/judge-seed3.sh OXO NEW
set -euo pipefail
oxo=$1
new=$2
here=lab/strength/connect4-2026-12-06-fresh-random-openings
for agent in "fresh:net:path=$new" "shipped:net:path=models/connect4/model.bpk"; do
  taskset -c 1 "$oxo" judge --variant connect4 --agent "${agent#*:}" --seed 3 \
    --random-positions 200 --own-games 8 --first-games 4 --out "$here/judge-seed3-${agent%%:*}.json"
done
