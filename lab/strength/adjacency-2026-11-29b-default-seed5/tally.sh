#!/usr/bin/env bash
# The tallies behind docs/experiments.md's "The shipped model and 28j's average on 40 more
# openings" and the README's 139-8-41 (76.1%) in 188: the shipped model at the default
# setting against alphabeta:ms=100 on seeds 1 to 5 (sum the first five lines), 28j's
# average on seed 5, and the shipped model rerun on seed 1's 40 openings. Writes summary.json.
# The seed-5 matches: oxo arena --variant adjacency --agents alphabeta:ms=100,NET --games 40
# --threads 1 --seed 5, NET net:search=puct,ms=400,score=1,rollouts=16,mix=0.75 (shipped) or
# net:path=lab/strength/adjacency-2026-11-28j-continuation-average/average-gen71-100.bpk,search=puct,ms=400,score=1,rollouts=16,mix=0.75.
set -euo pipefail
cd "$(dirname "$0")/../../.."
S=lab/strength
F=$S/adjacency-2026-11-29b-default-seed5
python3 scripts/arena_tally.py --summary "$F/summary.json" \
  shipped-seed1 "$S/adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-60games.json" \
  shipped-seed2 "$S/adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-40games-seed2.json" \
  shipped-seed3 "$S/adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves/moves-ab100-seed3-24.json" \
  shipped-seed4 "$S/adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves/moves-ab100-seed4-24.json" \
  shipped-seed5 "$F/shipped-ab100-seed5-40.json" \
  average28j-seed5 "$F/avg28j-ab100-seed5-40.json" \
  shipped-rerun-seed1 "$F/shipped-rerun-ab100-seed1-40.json"
