#!/bin/bash
# Screens a candidate adjacency net: the commands that the 2026-11-28 records
# (lab/strength/adjacency-2026-11-28c, -28d, -28e, -28f, -28g, -28j, -28l) ran, each from
# its own run.sh with its own nets, folder and stages, in the order they ran. Run from the
# repository root with OXO a release build and ORT_DYLIB_PATH set to onnxruntime's library.
#
#   lab/screen.sh train CONFIG RUNDIR MINUTES
#     A warm start: the shipped net's weights (models/adjacency/model.bpk) trained on with
#     CONFIG for MINUTES, in RUNDIR.
#
#   lab/screen.sh [--extra ,PARAMS] [--prefix P] NEW SHIPPED OUT STAGE...
#     Matches the candidate NEW (a `net:path=FILE` spec) in the given stages, in order, one
#     match per core (taskset), the two of a stage at once, result files under OUT:
#     depth3   at a fixed budget, so that the results do not depend on the machine's load
#              (1,000 PUCT simulations a move with the recorded value,
#              search=puct,sims=1000,score=1,rollouts=16,mix=0.75, then PARAMS), against
#              alphabeta:depth=3, 20 paired games on each of --seed 1 and 2 (the openings
#              of lab/strength/adjacency-2026-11-27b-sims1000-value-screens/base-seed*-20.json,
#              where the shipped model went 35-1-4): OUT/Psims1000-seed{1,2}-20.json
#     h2h1000  the same budget, 10 paired games against SHIPPED (a `net:path=FILE` spec) on
#              each of --seed 1 and 2: OUT/h2h-sims1000-seed{1,2}-10.json
#     timed    the default search (400 ms a move, search=puct,ms=400,score=1,rollouts=16,
#              mix=0.75): the first 40 openings against alphabeta:ms=100 (where the shipped
#              model went 32-3-5), OUT/new-ab100-40.json, and 20 paired games against
#              SHIPPED, OUT/new-vs-shipped-20.json
#     tally    scripts/arena_tally.py --agent 1 over the stages named before it, in their
#              order: OUT/summary.json
#     SHIPPED may be `-` where no stage plays it.
set -eu
if [ "${1-}" = train ]; then
  [ $# -eq 4 ] || { echo "usage: $0 train CONFIG RUNDIR MINUTES" >&2; exit 2; }
  "$OXO" train --variant adjacency --config "$2" --run "$3" \
    --init models/adjacency/model.bpk --minutes "$4"
  exit
fi
extra='' prefix=''
while [ $# -gt 0 ]; do
  case $1 in
  --extra) extra=$2; shift 2 ;;
  --prefix) prefix=$2; shift 2 ;;
  *) break ;;
  esac
done
if [ $# -lt 4 ]; then
  echo "usage: $0 train CONFIG RUNDIR MINUTES" >&2
  echo "       $0 [--extra ,PARAMS] [--prefix P] NEW SHIPPED OUT depth3|h2h1000|timed|tally..." >&2
  exit 2
fi
new=$1 shipped=$2 out=$3; shift 3
mkdir -p "$out"
fixed=search=puct,sims=1000,score=1,rollouts=16,mix=0.75$extra
timed=search=puct,ms=400,score=1,rollouts=16,mix=0.75$extra
tally=()
for stage in "$@"; do
  case $stage in
  depth3)
    for seed in 1 2; do
      taskset -c $((seed - 1)) "$OXO" arena --variant adjacency --agents "alphabeta:depth=3,$new,$fixed" \
        --games 20 --threads 1 --seed "$seed" --out "$out/${prefix}sims1000-seed$seed-20" &
    done
    wait
    tally+=("alphabeta:depth=3, 1,000 simulations" "$out/${prefix}sims1000-seed*-20.json") ;;
  h2h1000)
    for seed in 1 2; do
      taskset -c $((seed - 1)) "$OXO" arena --variant adjacency \
        --agents "$shipped,$fixed,$new,$fixed" --games 10 --threads 1 --seed "$seed" \
        --out "$out/h2h-sims1000-seed$seed-10" &
    done
    wait
    tally+=("against the shipped model, 1,000 simulations" "$out/h2h-sims1000-seed*-10.json") ;;
  timed)
    taskset -c 0 "$OXO" arena --variant adjacency --agents "alphabeta:ms=100,$new,$timed" --games 40 \
      --threads 1 --out "$out/new-ab100-40" &
    taskset -c 1 "$OXO" arena --variant adjacency --agents "$shipped,$timed,$new,$timed" --games 20 \
      --threads 1 --out "$out/new-vs-shipped-20" &
    wait
    tally+=("alphabeta:ms=100, 400 ms" "$out/new-ab100-40.json" \
      "against the shipped model, 400 ms" "$out/new-vs-shipped-20.json") ;;
  tally)
    scripts/arena_tally.py --agent 1 --summary "$out/summary.json" "${tally[@]}" ;;
  *)
    echo "$0: unknown stage '$stage' (depth3, h2h1000, timed or tally)" >&2
    exit 2 ;;
  esac
done
