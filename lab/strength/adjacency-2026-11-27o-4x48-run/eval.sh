#!/bin/bash
# The 4x48 candidate (MODEL, the run's last generation) at the default setting on this
# project's 2-core workstation, one single-threaded arena per core, both cores busy:
# core 0 against alphabeta:ms=100 on the first 40 openings of seed 1 (where the shipped model
# scored 83.8%: ../adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-60games.json),
# core 1 against the shipped model (40 games, seed 1). From the repository root, OXO a
# release build, ORT_DYLIB_PATH set:
#   OXO=target/release/oxo MODEL=... lab/strength/adjacency-2026-11-27o-4x48-run/eval.sh
set -eu
value=search=puct,ms=400,score=1,rollouts=16,mix=0.75
out=$(dirname "$0")
taskset -c 0 "$OXO" arena --variant adjacency --agents "alphabeta:ms=100,net:path=$MODEL,$value" \
  --games 40 --threads 1 --seed 1 --out "$out/cand-ab100-40games" &
taskset -c 1 "$OXO" arena --variant adjacency \
  --agents "net:path=models/adjacency/model.bpk,$value,net:path=$MODEL,$value" \
  --games 40 --threads 1 --seed 1 --out "$out/head-40games" &
wait
# Then, with core 0 free, the same at a fixed budget (1,000 PUCT simulations a move against
# alphabeta at depth 3, as ../adjacency-2026-11-27b-sims1000-value-screens/ screened the
# shipped model, seeds 1 and 2):
#   taskset -c 0 "$OXO" arena --variant adjacency --agents \
#     "alphabeta:depth=3,net:path=$MODEL,search=puct,sims=1000,score=1,rollouts=16,mix=0.75" \
#     --games 20 --threads 1 --seed S --out "$out/sims1000-depth3-seedS-20"   (S = 1, 2)
# Tally: scripts/arena_tally.py --summary summary.json (every file has the candidate at index 1).
