#!/bin/bash
# extreme at equal time on a lent machine's 16 cores: two play-time values of the net
# against uct:ms=500, paired: cores 0-7 play value A, cores 8-15 value B, and core i and
# core i+8 play the same seeds (openings), so the two values meet the same games.
# Each core plays 2-game matches (one opening, both colours) with seeds BASE+i, BASE+i+8,
# ... until DEADLINE seconds have passed; a pair cut off by the deadline is not counted.
# Usage, from the repository root: run2.sh BASE DEADLINE VALUE_A VALUE_B
# .dev/oxo is a release build (`cargo build --release -p oxo-cli`) of this code;
# onnxruntime from the machine's Python package.
set -u
base=$1; deadline=$2; va=$3; vb=$4
lib=$(python3 -c 'import onnxruntime,os,glob;print(sorted(glob.glob(os.path.dirname(onnxruntime.__file__)+"/capi/libonnxruntime.so*"))[-1])')
export ORT_DYLIB_PATH=$lib
echo "ort: $lib; nproc $(nproc)"; lscpu | grep -E 'Model name|Thread|Core|Socket'
R=/tmp/res; mkdir -p $R/A $R/B
sha256sum models/extreme/model.bpk > $R/model.sha256
echo "A=$va B=$vb base=$base" > $R/values.txt
start=$(date +%s)
play_core() {
  local core=$1 slot=$2 value=$3 dir=$4 k=0
  while true; do
    local left=$(( start + deadline - $(date +%s) ))
    [ $left -le 20 ] && break
    local seed=$(( base + slot + 8 * k ))
    timeout $left taskset -c $core .dev/oxo arena --variant extreme \
      --agents uct:ms=500,net:path=models/extreme/model.bpk,search=puct,ms=500,$value \
      --games 2 --threads 1 --seed $seed --out $dir/uct500-seed$seed >> $dir/log-$core.txt 2>&1 || break
    k=$((k + 1))
  done
}
for i in $(seq 0 7); do play_core $i $i "$va" $R/A & play_core $((i + 8)) $i "$vb" $R/B & done
wait
echo "done in $(( $(date +%s) - start )) s; A $(ls $R/A/*.json | wc -l) pairs, B $(ls $R/B/*.json | wc -l) pairs"
tar czf $OUT/extreme-values-vs-uct500.tgz -C $R .
# (on the lent machine this tally was inline Python; the same count is now scripts/arena_tally.py)
scripts/arena_tally.py A "$R/A/*.json" B "$R/B/*.json"
