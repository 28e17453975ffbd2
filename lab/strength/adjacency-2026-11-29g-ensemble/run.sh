#!/bin/bash
# adjacency, 2026-11-29: an ensemble of three nets at the default setting against
# alphabeta:ms=100. The nets: the shipped model and its two continuations that came closest
# to it at both settings (28j's mean of generations 71-100,
# lab/strength/adjacency-2026-11-28j-continuation-average/average-gen71-100.bpk; 28l's
# generation 95, lab/strength/adjacency-2026-11-28l-o-weighted-selfplay/gen-00095.bpk).
# Their margins disagree by 4 to 7 points (RMS) on positions of the shipped net's play
# (diversity.py), so averaging should cancel part of each one's error. ensemble.py merges
# their fp32 exports into one graph whose outputs are the means of theirs;
# scripts/quantize_int8.py makes its int8 graph (0.151 s for 400 simulations against the
# shipped int8 graph's 0.060, so about 1,000 simulations a move at ms=400 instead of 2,700).
# Played on the openings of --seed 2 and --seed 5, one core each, where the shipped int8
# graph scored 32-2-6 and 27-2-11 (lab/strength/adjacency-2026-11-29e-int8-graph/).
# Run from the repository root with a release build as OXO and ORT_DYLIB_PATH set:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-29g-ensemble/run.sh OUTDIR
# `run.sh tally` alone rewrites summary.json from the results in this folder.
set -u
here=$(dirname "$0")
tally() {
  python3 scripts/arena_tally.py --summary "$here/summary.json" \
    ensemble-seed2 "$here/ens3-ab100-seed2-40.json" \
    ensemble-seed5 "$here/ens3-ab100-seed5-40.json" \
    ensemble-both "$here/ens3-ab100-seed*-40.json" \
    shipped-int8-seed2 "lab/strength/adjacency-2026-11-29e-int8-graph/int8-default-ab100-seed2-40.json" \
    shipped-int8-seed5 "lab/strength/adjacency-2026-11-29e-int8-graph/int8-default-ab100-seed5-40.json" \
    shipped-int8-both "lab/strength/adjacency-2026-11-29e-int8-graph/int8-default-ab100-seed*-40.json"
}
if [ "${1:-}" = tally ]; then tally; exit; fi
out=$1; mkdir -p "$out"
S=lab/strength
"$OXO" export --model $S/adjacency-2026-11-28j-continuation-average/average-gen71-100.bpk \
  --out "$out/avg28j"
"$OXO" export --model $S/adjacency-2026-11-28l-o-weighted-selfplay/gen-00095.bpk --out "$out/ow95"
python3 "$here/diversity.py" models/adjacency "$out/avg28j" "$out/ow95"
mkdir -p "$out/ens3"
python3 "$here/ensemble.py" "$out/ens3/model.onnx" models/adjacency/model.onnx \
  "$out/avg28j/model.onnx" "$out/ow95/model.onnx"
cp models/adjacency/model.json "$out/ens3/"
python3 scripts/quantize_int8.py "$out/ens3" "$out/ens3/ens3-int8.onnx"
net="net:search=puct,ms=400,score=1,rollouts=16,mix=0.75,onnx=$out/ens3/ens3-int8.onnx"
for seed in 2 5; do echo "ens3-ab100-seed$seed-40 alphabeta:ms=100,$net 40 $seed"; done |
  scripts/arena_queue.sh adjacency "$out" 0,1
