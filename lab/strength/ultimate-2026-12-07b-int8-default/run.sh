#!/bin/bash
# ultimate, 2026-12-07: does the shipped net's static int8 graph, which searches 1.6x the
# simulations of fp32 in the same time here (400 simulations in 0.016 s a move against
# 0.026 s: time-per-move.txt, by scripts/time_per_move.py on one core), make the default
# agent stronger against uct:ms=2000 (the shipped model: 42-34-4, 73.8% in 80 games,
# 2026-12-03)? The default setting (the model's model.json: PUCT at 400 ms, 16 rollouts mixed
# at 0.5) with the int8 graph, on the openings of that record (--seed 1 and 2, 40 games
# each), one match a core at once; then where the shipped model has its other records.
# Run from the repository root with OXO a release build:
#   OXO=... run.sh quantize  # lab/engines/ultimate-int8.onnx and the two times per move
#   OXO=... run.sh match     # the default with int8 against uct:ms=2000, seeds 1 and 2
#   OXO=... run.sh rows      # the README's three: against alphabeta:ms=100 (100 games, the
#                            # arena's default seed), and at 500 ms against uct:ms=500 and
#                            # alphabeta:ms=500 (--seed 1 to 5, 20 games each)
#   OXO=... run.sh ab2000    # the default with int8 against alphabeta:ms=2000, seeds 1 and 2
#   run.sh tally             # summary.json: int8 beside the shipped model's records
set -eu
here=$(dirname "$0")
int8=lab/engines/ultimate-int8.onnx
case ${1-} in
quantize)
  python3 scripts/quantize_int8.py models/ultimate "$int8"
  for onnx in models/ultimate/model.onnx "$int8"; do
    taskset -c 0 python3 scripts/time_per_move.py "$OXO" ultimate --moves 30 \
      --agent "net:search=puct,sims=400,reuse=0,onnx=$onnx"
  done | tee "$here/time-per-move.txt" ;;
match)
  for seed in 1 2; do
    echo "int8-uct2000-seed$seed-40 net:onnx=$int8,uct:ms=2000 40 $seed"
  done | scripts/arena_queue.sh ultimate "$here" 0,1 ;;
rows)
  {
    echo "int8-ab100-100 net:onnx=$int8,alphabeta:ms=100 100 1"
    for seed in 1 2 3 4 5; do
      echo "int8-ms500-uct500-seed$seed-20 net:onnx=$int8,ms=500,uct:ms=500 20 $seed"
      echo "int8-ms500-ab500-seed$seed-20 net:onnx=$int8,ms=500,alphabeta:ms=500 20 $seed"
    done
  } | scripts/arena_queue.sh ultimate "$here" 0,1 ;;
ab2000)
  # Against alphabeta:ms=2000: seed 1's first 20 openings (the first half of the fp32
  # record's 40) and seed 2's first 20, one match a core.
  for seed in 1 2; do
    echo "int8-ab2000-seed$seed-20 net:onnx=$int8,alphabeta:ms=2000 20 $seed"
  done | scripts/arena_queue.sh ultimate "$here" 0,1 ;;
tally)
  shipped=lab/strength/ultimate-2026-12-03-default-vs-2000ms
  ab100=lab/strength/shipped-rerun-2026-12-03/ultimate-default-vs-alphabeta-ms100-100games.json
  ms500=lab/strength/ultimate-2026-12-05-ms500-as-typed/net-ms500-vs-
  python3 scripts/arena_tally.py --summary "$here/summary.json" \
    shipped-uct2000 "$shipped/default-vs-uct-ms2000-40games*.json" \
    int8-uct2000 "$here/int8-uct2000-seed[12]-40.json" \
    shipped-ab100 "$ab100" int8-ab100 "$here/int8-ab100-100.json" \
    shipped-uct500 "${ms500}uct-ms500-20games-seed[1-5].json" \
    int8-uct500 "$here/int8-ms500-uct500-seed[1-5]-20.json" \
    shipped-ab500 "${ms500}alphabeta-ms500-20games-seed[1-5].json" \
    int8-ab500 "$here/int8-ms500-ab500-seed[1-5]-20.json" \
    shipped-ab2000 "$shipped/default-vs-alphabeta-ms2000-40games.json" \
    int8-ab2000 "$here/int8-ab2000-seed[12]-20.json" ;;
*)
  echo "usage: $0 quantize | match | rows | ab2000 | tally" >&2
  exit 2 ;;
esac
