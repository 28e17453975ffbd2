#!/bin/bash
# extreme, 2026-12-07: does the shipped net's static int8 graph, which searches 400
# simulations in 0.076 s a move where fp32 takes 0.097 s (1.3x; the model's 16 playouts a
# leaf included; time-per-move.txt, scripts/time_per_move.py on one core), make the default
# agent stronger against uct:ms=2000? The default setting (model.json: PUCT at 400 ms,
# solve=1, 16 playouts mixed at 0.75) with the int8 graph, on the openings of the records
# of 2026-12-05 and 2026-12-07 (../extreme-2026-12-05-default-vs-2000ms,
# ../extreme-2026-12-07c-solve-default-vs-uct2000: --seed 1 and 2, 10 games each), one
# match a core at once. It went 11-0-9 (55.0%, margin +5.2) where fp32 went 10-0-10 (+6.1)
# and 9-0-11 (+6.7): game by game nothing, so no more seeds were played and the graph is
# not shipped (the repository does not hold it: `quantize` makes the same bytes again,
# CRC-32 4b00512b, where the matches' spec names it).
# Run from the repository root with OXO a release build:
#   OXO=... run.sh quantize  # models/extreme/model-int8.onnx (deterministic) and the times
#   OXO=... run.sh match     # the int8 default against uct:ms=2000, seeds 1 and 2
#   run.sh tally             # summary.txt, summary.json: beside fp32 with and without solve=1
set -eu
here=$(dirname "$0")
int8=models/extreme/model-int8.onnx
case ${1-} in
quantize)
  python3 scripts/quantize_int8.py models/extreme "$int8"
  for onnx in models/extreme/model.onnx "$int8"; do
    taskset -c 0 python3 scripts/time_per_move.py "$OXO" extreme --moves 30 \
      --agent "net:search=puct,sims=400,reuse=0,onnx=$onnx"
  done | tee "$here/time-per-move.txt"
  # The same without the playouts (the last two lines of time-per-move.txt).
  for onnx in models/extreme/model.onnx "$int8"; do
    taskset -c 0 python3 scripts/time_per_move.py "$OXO" extreme --moves 30 \
      --agent "net:search=puct,sims=400,reuse=0,rollouts=0,onnx=$onnx" | sed 's/$/ (rollouts=0)/'
  done | tee -a "$here/time-per-move.txt" ;;
match)
  for seed in 1 2; do
    echo "int8-uct2000-seed$seed-10 net:onnx=$int8,uct:ms=2000 10 $seed"
  done | scripts/arena_queue.sh extreme "$here" 0,1 ;;
tally)
  fp32=lab/strength/extreme-2026-12-07c-solve-default-vs-uct2000/default-vs-uct-ms2000-10games-seed
  python3 scripts/arena_tally.py --summary "$here/summary.json" \
    --pair fp32-uct2000 int8-uct2000 --pair solve0-uct2000 int8-uct2000 \
    fp32-uct2000 "${fp32}[12].json" int8-uct2000 "$here/int8-uct2000-seed[12]-10.json" \
    solve0-uct2000 "lab/strength/extreme-2026-12-05-default-vs-2000ms/default-vs-uct-ms2000-10games-seed[12].json" |
    tee "$here/summary.txt" ;;
*)
  echo "usage: $0 quantize | match | tally" >&2
  exit 2 ;;
esac
