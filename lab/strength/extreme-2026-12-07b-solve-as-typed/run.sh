#!/usr/bin/env bash
# Extreme's model with `solve=1` in its model.json, as a user types it: `net:ms=500` against
# alphabeta:ms=500 (seeds 1-5, 20 paired games each: the openings of
# ../extreme-2026-12-05-ms500-as-typed) and the default agent `net` against alphabeta:ms=100
# (100 paired games, the arena's default seed: the openings of
# ../shipped-rerun-2026-12-03/extreme-default-vs-alphabeta-ms100-100games.json), one match
# a core, two at once. Against uct:ms=500 the same setting is ../extreme-2026-12-07-solver.
# Usage (from the repository root): run.sh OXO
set -euo pipefail
oxo=$1
here=lab/strength/extreme-2026-12-07b-solve-as-typed
ab500() {
  taskset -c "$1" "$oxo" arena --variant extreme --agents "net:ms=500,alphabeta:ms=500" \
    --games 20 --threads 1 --seed "$2" --out "$here/net-ms500-vs-alphabeta-ms500-20games-seed$2"
}
{ for seed in 1 2 3 4; do ab500 0 "$seed"; done; } &
{
  taskset -c 1 "$oxo" arena --variant extreme --agents "net,alphabeta:ms=100" \
    --games 100 --threads 1 --out "$here/default-vs-alphabeta-ms100-100games"
  ab500 1 5
} &
wait
