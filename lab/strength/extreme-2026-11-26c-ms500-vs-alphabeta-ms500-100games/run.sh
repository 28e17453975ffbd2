#!/bin/bash
# extreme at equal time on the lent machine's cores: net:ms=500 against alphabeta:ms=500,
# 100 paired games as 16 single-threaded arena processes (one per core), seeds 101..116.
# Run from the repository root on a lent 16-core machine (2026-11-26), .dev/oxo a release build
# (`cargo build --release -p oxo-cli`) of this code; onnxruntime from the machine's Python package.
# Totals: summary.json.
set -u
lib=$(python3 -c 'import onnxruntime,os,glob;print(sorted(glob.glob(os.path.dirname(onnxruntime.__file__)+"/capi/libonnxruntime.so*"))[-1])')
export ORT_DYLIB_PATH=$lib
echo "ort: $lib; nproc $(nproc)"; lscpu | grep -E 'Model name|Thread|Core|Socket' 
R=/tmp/res; mkdir -p $R
sha256sum models/extreme/model.bpk > $R/model.sha256
start=$(date +%s)
for i in $(seq 0 15); do
  g=6; [ $i -lt 2 ] && g=8
  taskset -c $i .dev/oxo arena --variant extreme \
    --agents alphabeta:ms=500,net:path=models/extreme/model.bpk,search=puct,ms=500,score=1 \
    --games $g --threads 1 --seed $((101+i)) --out $R/ab500-seed$((101+i)) > $R/log-$i.txt 2>&1 &
done
wait
echo "done in $(( $(date +%s) - start )) s"
tar czf $OUT/extreme-ms500-vs-ab500.tgz -C $R .
cat $R/log-*.txt | grep -v '^$' | tail -40
