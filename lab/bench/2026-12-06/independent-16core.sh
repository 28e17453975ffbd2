#!/usr/bin/env bash
# On a lent 16-core machine: what the cores allow. N one-thread `oxo bench train` processes
# at once (N = 8, 16), each its own process, against one process's data-parallel replicas on 8
# threads at batch 1024. Run as it was (one `run` command of the device tool):
#
#     lab/bench/2026-12-06/independent-16core.sh OXO OUT
set -uo pipefail
oxo=$1 out=$2
lscpu >"$out/lscpu.txt"
ORT_DYLIB_PATH=$(python3 -c "import onnxruntime, glob, os; print(glob.glob(os.path.join(os.path.dirname(onnxruntime.__file__), 'capi', 'libonnxruntime.so*'))[0])")
export ORT_DYLIB_PATH
for v in ultimate extreme; do
  for n in 8 16; do
    for i in $(seq $n); do
      "$oxo" bench train --variant $v --model models/$v/model.bpk --threads 1 --seconds 4 --json >/tmp/ind-$v-$n-$i.json 2>/dev/null &
    done
    wait
    for i in $(seq $n); do echo "{\"run\": \"$v independent $n #$i\"}"; cat /tmp/ind-$v-$n-$i.json; done >>"$out/independent.jsonl"
  done
  echo "{\"run\": \"$v new batch 1024 8 threads\"}" >>"$out/independent.jsonl"
  "$oxo" bench train --variant $v --model models/$v/model.bpk --threads 8 --batch 1024 --seconds 3 --json >>"$out/independent.jsonl" 2>/dev/null
done
