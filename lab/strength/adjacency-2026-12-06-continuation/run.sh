#!/bin/bash
# adjacency, 2026-12-06: does O's play grow with training? The shipped recipe
# (configs/adjacency.toml) continued from the shipped model's weights with every role at
# once on both cores (the pipeline that trained no adjacency model before), then its best
# net at the default setting against alphabeta:ms=100 on the openings of --seed 2 and 5,
# beside a rerun of the shipped model there (its int8 graph went 32-2-6 and 27-2-11 on
# 2026-11-29, lab/strength/adjacency-2026-11-29e-int8-graph/). Run from the repository root with OXO a
# release build and ORT_DYLIB_PATH set where onnxruntime is not found by itself:
#   OXO=target/release/oxo lab/strength/adjacency-2026-12-06-continuation/run.sh train RUN MINUTES
#   OXO=... run.sh export RUN GEN OUT   # RUN/models/GEN.bpk to OUT/GEN, its int8 graph recorded
#   OXO=... run.sh match OUT GEN        # OUT/GEN and the shipped model, each at its default,
#                                       # against alphabeta:ms=100, one match a core at a time
#   run.sh tally GEN...                 # summary.json: each GEN's result files and the shipped ones
set -eu
# RECORD_DIR: the record folder its commands write in (default: this one; a later record
# that exports its nets the same way names its own).
here=${RECORD_DIR:-$(dirname "$0")}
case ${1-} in
train)
  OXO=$OXO exec lab/screen.sh train configs/adjacency.toml "$2" "$3" ;;
export)
  run=$2 gen=$3 out=$4
  "$OXO" export --model "$run/models/$gen.bpk" --out "$out/$gen" \
    --search search=puct,ms=400 --value score=1,rollouts=16,mix=0.75
  python3 scripts/quantize_int8.py "$out/$gen" "$out/$gen/model-int8.onnx" --record
  sha256sum "$out/$gen/model.bpk" "$out/$gen/model-int8.onnx" >> "$here/models.sha256" ;;
match)
  out=$2 gen=$3
  for seed in 2 5; do
    echo "$gen-ab100-seed$seed-40 alphabeta:ms=100,net:path=$out/$gen/model.bpk 40 $seed"
    echo "shipped-ab100-seed$seed-40 alphabeta:ms=100,net 40 $seed"
  done | scripts/arena_queue.sh adjacency "$here" 0,1 ;;
tally)
  shift
  shipped=lab/strength/adjacency-2026-11-29e-int8-graph
  pairs=(shipped-2026-11-29-seed2-5 "$shipped/int8-default-ab100-seed[25]-40.json")
  pairs+=(shipped-rerun-seed2-5 "$here/shipped-ab100-seed[25]-40.json")
  for gen in "$@"; do pairs+=("$gen-seed2-5" "$here/$gen-ab100-seed[25]-40.json"); done
  python3 scripts/arena_tally.py --summary "$here/summary.json" "${pairs[@]}" ;;
*)
  echo "usage: $0 train RUN MINUTES | export RUN GEN OUT | match OUT GEN | tally GEN..." >&2
  exit 2 ;;
esac
