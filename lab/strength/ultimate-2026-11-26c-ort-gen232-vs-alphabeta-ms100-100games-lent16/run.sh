#!/bin/bash
# Default agents against alphabeta:ms=100 on the lent machine's 16 cores: one single-threaded
# arena process per core. ultimate: 100 paired games (10 processes, 10 games each);
# adjacency: 36 paired games (6 processes, 6 each). Models in .dev/, .dev/oxo a release build.
# Run from the repository root on a lent 16-core machine (2026-11-26); .dev/ultimate.bpk is
# /work/runs/ultimate-ort generation 232, .dev/adjacency.bpk /work/runs/adjacency-puct generation
# 137 (sha256 in summary.json). Tallies: summary.json here and in
# ../adjacency-2026-11-26e-puct-gen137-vs-alphabeta-ms100-36games-lent16/.
set -u
lib=$(python3 -c 'import onnxruntime,os,glob;print(sorted(glob.glob(os.path.dirname(onnxruntime.__file__)+"/capi/libonnxruntime.so*"))[-1])')
export ORT_DYLIB_PATH=$lib
R=/tmp/res; mkdir -p $R
sha256sum .dev/*.bpk > $R/models.sha256
start=$(date +%s)
for i in $(seq 0 9); do
  taskset -c $i .dev/oxo arena --variant ultimate \
    --agents alphabeta:ms=100,net:path=.dev/ultimate.bpk,search=puct,ms=400,rollouts=16,mix=0.5 \
    --games 10 --threads 1 --seed $((201+i)) --out $R/ultimate-ab100-seed$((201+i)) > $R/log-u$i.txt 2>&1 &
done
for i in $(seq 0 5); do
  taskset -c $((10+i)) .dev/oxo arena --variant adjacency \
    --agents alphabeta:ms=100,net:path=.dev/adjacency.bpk,search=puct,ms=400,score=1 \
    --games 6 --threads 1 --seed $((301+i)) --out $R/adjacency-ab100-seed$((301+i)) > $R/log-a$i.txt 2>&1 &
done
wait
echo "done in $(( $(date +%s) - start )) s"
tar czf $OUT/eval.tgz -C $R .
grep -h ' vs ' $R/log-*.txt
