#!/bin/bash
# adjacency at equal time, 2026-11-27: the shipped model with three quarters random playouts
# (score=1,rollouts=16,mix=0.75, its recorded value) against alphabeta:ms=500 and uct:ms=500,
# five 20-game matches each (--seed 1 to 5: ten paired openings per seed, both colours).
# Two workers, one per core (taskset), take the matches in the order of the list below; a
# match is claimed by mkdir. Run from the repository root with a release build as OXO
# (`cargo build --release -p oxo-cli`) and ORT_DYLIB_PATH set to onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-27-ms500-playouts075-equal-time/run.sh OUTDIR
# (the default agent's 40 games with --seed 2 against alphabeta:ms=100 ran first in the same
# queue, on core 0: adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-40games-seed2.json)
set -u
out=$1; mkdir -p "$out"
net=net:search=puct,ms=500,score=1,rollouts=16,mix=0.75
jobs=""
for seed in 1 2 3 4 5; do jobs+="uct500-seed$seed-20 uct:ms=500 $seed"$'\n'"ab500-seed$seed-20 alphabeta:ms=500 $seed"$'\n'; done
worker() {
  local core=$1
  while read -r name opp seed; do
    [ -n "$name" ] || continue
    mkdir "$out/$name.claim" 2>/dev/null || continue
    taskset -c "$core" "$OXO" arena --variant adjacency --agents "$opp,$net" --games 20 \
      --threads 1 --seed "$seed" --out "$out/$name" > "$out/$name.log" 2>&1
  done <<< "$jobs"
}
worker 0 & worker 1 & wait
scripts/arena_tally.py --summary "$out/summary.json" \
  alphabeta:ms=500 "$out/ab500-seed*-20.json" uct:ms=500 "$out/uct500-seed*-20.json"
