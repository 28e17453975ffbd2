#!/bin/bash
# The second call on the lent machine (2026-11-27): value B of run.sh alone on all 16 cores,
# one 2-game match (one opening, both colours) per core with seeds 701 to 716, each cut
# off at 232 s (every pair finished). From the repository root; .dev/oxo as in run.sh.
export ORT_DYLIB_PATH=$(ls /opt/torch/.venv/lib/python3.12/site-packages/onnxruntime/capi/libonnxruntime.so.1.30.0)
R=/tmp/r2; mkdir -p $R
for i in $(seq 0 15); do
  s=$((701 + i))
  timeout 232 taskset -c $i .dev/oxo arena --variant extreme \
    --agents uct:ms=500,net:path=models/extreme/model.bpk,search=puct,ms=500,score=1,rollouts=16,mix=0.75 \
    --games 2 --threads 1 --seed $s --out $R/uct500-seed$s > $R/log-$i.txt 2>&1 &
done
wait
