#!/bin/bash
# adjacency, 2026-11-29: the shipped model searched with its int8 graph
# (models/adjacency/model-int8.onnx, the file lab/engines/adjacency-int8.onnx made on
# 2026-11-27 by `python3 scripts/quantize_int8.py models/adjacency OUT`; about twice the
# simulations of fp32 in the same time), which model.json records as the graph it plays
# since this folder's results. The matches ran before that record, with
# onnx=lab/engines/adjacency-int8.onnx in the net's spec (same bytes); since it, the plain
# default spec plays the same graph.
#   1. At equal time against alphabeta:ms=500 on the openings of the fp32 model's 71.5%
#      (lab/strength/adjacency-2026-11-27-ms500-playouts075-equal-time/: --seed 1 to 5, 20
#      games each, ten paired openings per seed, both colours); two workers, one per core,
#      play the matches in order (scripts/arena_queue.sh).
#   2. At the default setting against alphabeta:ms=100 on the 40 openings of --seed 5 (the
#      fp32 model's 71.2%, lab/strength/adjacency-2026-11-29b-default-seed5/), and of --seed 2
#      (its 77.5%), one core each; later on 2026-11-29, with the graph recorded, that
#      of --seed 3 too (the fp32 model played its first 24,
#      lab/strength/adjacency-2026-11-27e-default-vs-alphabeta-ms100-moves/). The first 40
#      openings' int8 figure is lab/strength/adjacency-2026-11-27g-int8-default/.
# Run from the repository root with a release build as OXO and ORT_DYLIB_PATH set to
# onnxruntime's library:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-29e-int8-graph/run.sh OUTDIR
# `run.sh tally` alone rewrites summary.json from the results in this folder.
set -u
here=$(dirname "$0")
S=lab/strength
tally() {
  python3 scripts/arena_tally.py --summary "$here/summary.json" \
    int8-vs-alphabeta-ms500 "$here/int8-ab500-seed*-20.json" \
    fp32-vs-alphabeta-ms500 "$S/adjacency-2026-11-27-ms500-playouts075-equal-time/ab500-seed*-20.json" \
    int8-default-seed1 "$S/adjacency-2026-11-27g-int8-default/int8-default-vs-ab100-40games.json" \
    int8-default-seed2 "$here/int8-default-ab100-seed2-40.json" \
    int8-default-seed5 "$here/int8-default-ab100-seed5-40.json" \
    int8-default-seed3 "$here/int8-default-ab100-seed3-40.json" \
    fp32-default-seed2 "$S/adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-40games-seed2.json" \
    fp32-default-seed5 "$S/adjacency-2026-11-29b-default-seed5/shipped-ab100-seed5-40.json" \
    fp32-default-seed1-rerun "$S/adjacency-2026-11-29b-default-seed5/shipped-rerun-ab100-seed1-40.json"
  # The 120 openings of seeds 1 (its first 40), 2 and 5: int8, and fp32 counting its record
  # on the first 40 (the first 40 games of the 60-game record file) or the rerun there.
  python3 - "$here/summary.json" "$S/adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-60games.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
games = [g for g in json.load(open(sys.argv[2]))["games"] if g["opening"] < 20]
summary["fp32-default-seed1-record-first40"] = {
    "wins": sum(g["result"] in ("x", "o") and g[g["result"]] == 1 for g in games),
    "draws": sum(g["result"] == "draw" for g in games), "games": len(games)}
first = summary["fp32-default-seed1-record-first40"]
first["losses"] = first["games"] - first["wins"] - first["draws"]
def total(labels, side=lambda record: record):
    w, d, l = (sum(side(summary[k])[f] for k in labels) for f in ("wins", "draws", "losses"))
    return {"wins": w, "draws": d, "losses": l, "score": round((w + d / 2) / (w + d + l), 4)}
for name, first40 in (("int8", "int8-default-seed1"), ("fp32-record", "fp32-default-seed1-record-first40"),
                      ("fp32-rerun", "fp32-default-seed1-rerun")):
    kind = name.split("-")[0]
    summary[f"{name}-default-120"] = total([first40, f"{kind}-default-seed2", f"{kind}-default-seed5"])
    print(f"{name} on 120 openings: {summary[f'{name}-default-120']}")
int8_160 = ["int8-default-seed1", "int8-default-seed2", "int8-default-seed5", "int8-default-seed3"]
summary["int8-default-160"] = total(int8_160)
for side in ("as_x", "as_o"):
    summary["int8-default-160"][side] = total(int8_160, lambda record: record[side])
print(f"int8 on 160 openings (with --seed 3's): {summary['int8-default-160']}")
json.dump(summary, open(sys.argv[1], "w"), indent=2)
PY
}
if [ "${1:-}" = tally ]; then tally; exit; fi
out=$1; mkdir -p "$out"
int8=lab/engines/adjacency-int8.onnx
net=net:search=puct,ms=500,score=1,rollouts=16,mix=0.75,onnx=$int8
default=net:search=puct,ms=400,score=1,rollouts=16,mix=0.75,onnx=$int8
for seed in 1 2 3 4 5; do echo "int8-ab500-seed$seed-20 alphabeta:ms=500,$net 20 $seed"; done |
  scripts/arena_queue.sh adjacency "$out" 0,1
for seed in 2 5 3; do echo "int8-default-ab100-seed$seed-40 alphabeta:ms=100,$default 40 $seed"; done |
  scripts/arena_queue.sh adjacency "$out" 0,1
