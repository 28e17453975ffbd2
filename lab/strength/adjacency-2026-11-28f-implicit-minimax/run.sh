#!/bin/bash
# adjacency, 2026-11-28: implicit minimax backups (Lanctot et al. 2014) in the play-time PUCT
# search, screened at a fixed budget against alphabeta:depth=3 on the openings of
# lab/strength/adjacency-2026-11-27b-sims1000-value-screens/base-seed*-20.json (the recorded
# value, 35-1-4). Each tree node also keeps the minimax of the leaf values below it (its own
# value until a child is evaluated, then its best evaluated child's), and PUCT reads an
# evaluated child's Q as (1 - w) * mean + w * minimax, with w = 0.3 (`minimax=0.3`, a `net:`
# parameter of a change that was not merged: 22-7-11, 63.7%, one game better and 15 worse
# than the recorded value on the same openings and colours; it is described in
# docs/experiments.md, "xando and adjacency", item "Implicit minimax backups in the
# play-time search"). The leaf values are the
# recorded ones (score head and random playouts mixed), so the max runs over noisy values of
# partly expanded nodes. Run from the repository root, with OXO a release build of commit
# ac3e838 with that change (commit 9cffc20) and ORT_DYLIB_PATH set to onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-28f-implicit-minimax/run.sh OUTDIR
set -eu
out=$1
# lab/screen.sh's depth3 stage with `,minimax=0.3` after the recorded value, one match per
# core: alphabeta:depth=3 against
# net:path=models/adjacency/model.bpk,search=puct,sims=1000,score=1,rollouts=16,mix=0.75,minimax=0.3
# on --seed 1 and 2, OUT/mm03-sims1000-seed{1,2}-20.json.
"$(dirname "$0")/../../screen.sh" --extra ,minimax=0.3 --prefix mm03- \
  net:path=models/adjacency/model.bpk - "$out" depth3
scripts/arena_tally.py --agent 1 --summary "$out/summary.json" \
  "minimax=0.3" "$out/mm03-sims1000-seed*-20.json" \
  "recorded value (2026-11-27b)" \
  "lab/strength/adjacency-2026-11-27b-sims1000-value-screens/base-seed*-20.json"
