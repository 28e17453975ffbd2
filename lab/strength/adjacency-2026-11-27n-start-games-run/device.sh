#!/bin/bash
# adjacency, 2026-11-27: the start-games candidate (.dev/cand.bpk) and the shipped model
# (models/adjacency/model.bpk) against alphabeta:ms=100 on the same openings, and against
# each other, on a lent machine's 16 cores, one single-threaded arena process per core.
# Cores 0-5 play the candidate, cores 6-11 the shipped model, core i and core i+6 the same
# seeds (openings): 2-game matches (one opening, both colours) with seeds BASE+i, BASE+i+6,
# ... until DEADLINE seconds have passed; a pair cut off by the deadline is not counted.
# Cores 12-15 play the candidate against the shipped model the same way, seeds from BASE+500.
# Both nets play the default setting. Usage, from the repository root:
#   device.sh BASE DEADLINE
# .dev/oxo is a release build (`cargo build --release -p oxo-cli`) of this code; onnxruntime
# from the machine's Python package.
set -u
base=$1; deadline=$2
lib=$(python3 -c 'import onnxruntime,os,glob;print(sorted(glob.glob(os.path.dirname(onnxruntime.__file__)+"/capi/libonnxruntime.so*"))[-1])')
export ORT_DYLIB_PATH=$lib
echo "ort: $lib; nproc $(nproc)"; lscpu | grep -E 'Model name|Thread|Core|Socket'
value=search=puct,ms=400,score=1,rollouts=16,mix=0.75
cand=net:path=.dev/cand.bpk,$value
shipped=net:path=models/adjacency/model.bpk,$value
R=/tmp/res; mkdir -p $R/cand $R/shipped $R/head
sha256sum .dev/cand.bpk models/adjacency/model.bpk > $R/models.sha256
start=$(date +%s)
# play_core CORE SEED0 STEP AGENTS DIR: 2-game matches with seeds SEED0, SEED0+STEP, ...
play_core() {
  local core=$1 seed=$2 step=$3 agents=$4 dir=$5
  while true; do
    local left=$(( start + deadline - $(date +%s) ))
    [ $left -le 20 ] && break
    timeout $left taskset -c $core .dev/oxo arena --variant adjacency --agents "$agents" \
      --games 2 --threads 1 --seed $seed --out $dir/seed$seed >> $dir/log-$core.txt 2>&1 || break
    seed=$((seed + step))
  done
}
for i in $(seq 0 5); do
  play_core $i $((base + i)) 6 "alphabeta:ms=100,$cand" $R/cand &
  play_core $((i + 6)) $((base + i)) 6 "alphabeta:ms=100,$shipped" $R/shipped &
done
for i in $(seq 0 3); do
  play_core $((i + 12)) $((base + 500 + i)) 4 "$shipped,$cand" $R/head &
done
wait
echo "done in $(( $(date +%s) - start )) s"
tar czf $OUT/start-games-eval.tgz -C $R .
scripts/arena_tally.py --agent 1 cand "$R/cand/*.json" shipped "$R/shipped/*.json" head "$R/head/*.json"
