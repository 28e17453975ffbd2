#!/bin/bash
# extreme at equal time on a lent machine's 16 cores: net:ms=500 against uct:ms=500.
# One single-threaded arena process per core (taskset); each plays 2-game matches (one
# opening, both colours) with seeds BASE+i, BASE+i+16, ... until DEADLINE seconds have
# passed, so every finished pair is kept even when time runs out (a pair cut off by the
# deadline writes nothing and is not counted).
# Usage, from the repository root: run.sh BASE DEADLINE TAG
# .dev/oxo is a release build (`cargo build --release -p oxo-cli`) of this code; onnxruntime
# from the machine's Python package. Totals: summary.json.
set -u
base=$1; deadline=$2; tag=$3
lib=$(python3 -c 'import onnxruntime,os,glob;print(sorted(glob.glob(os.path.dirname(onnxruntime.__file__)+"/capi/libonnxruntime.so*"))[-1])')
export ORT_DYLIB_PATH=$lib
echo "ort: $lib; nproc $(nproc)"; lscpu | grep -E 'Model name|Thread|Core|Socket'
R=/tmp/res; mkdir -p $R
sha256sum models/extreme/model.bpk > $R/model-$tag.sha256
start=$(date +%s)
play_core() {
  local i=$1 k=0
  while true; do
    local left=$(( start + deadline - $(date +%s) ))
    [ $left -le 20 ] && break
    local seed=$(( base + i + 16 * k ))
    timeout $left taskset -c $i .dev/oxo arena --variant extreme \
      --agents uct:ms=500,net:path=models/extreme/model.bpk,search=puct,ms=500,score=1 \
      --games 2 --threads 1 --seed $seed --out $R/uct500-seed$seed >> $R/log-$tag-$i.txt 2>&1 || break
    k=$((k + 1))
  done
}
for i in $(seq 0 15); do play_core $i & done
wait
echo "done in $(( $(date +%s) - start )) s; $(ls $R/uct500-seed*.json | wc -l) pairs finished"
tar czf $OUT/extreme-ms500-vs-uct500-$tag.tgz -C $R .
grep -h ' vs \|uct' $R/log-$tag-*.txt | tail -20
