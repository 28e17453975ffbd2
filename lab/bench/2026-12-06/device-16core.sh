#!/usr/bin/env bash
# On a lent machine with 16 cores and a GPU: oxo's training on 1 to 16 threads (this trainer,
# and the one before its gradients were summed as a tree), PyTorch on the same cores and on
# the GPU, and `oxo train` on all 16 cores for 2 minutes.
#
#     lab/bench/2026-12-06/device-16core.sh OLD NEW OUT
#
# OLD, NEW: oxo binaries; OUT: a folder for train.jsonl, machine.txt, the run's log and
# metrics. Needs python3 with torch (CUDA) and onnxruntime.
set -uo pipefail
old=$1 new=$2 out=$3
{ nproc; lscpu | grep 'Model name'; nvidia-smi -L; python3 -c 'import torch; print("torch", torch.__version__)'; } >"$out/machine.txt" 2>&1
ORT_DYLIB_PATH=$(python3 -c "import onnxruntime, glob, os; print(glob.glob(os.path.join(os.path.dirname(onnxruntime.__file__), 'capi', 'libonnxruntime.so*'))[0])")
export ORT_DYLIB_PATH
record() { echo "{\"run\": \"$1\"}" >>"$out/train.jsonl"; shift; "$@" >>"$out/train.jsonl" 2>>"$out/stderr.txt"; }
for v in ultimate extreme; do
  model=models/$v/model.bpk
  record "$v new batch 128" "$new" bench train --variant $v --model $model --threads 1,2,4,8,16 --seconds 3 --json
  record "$v old batch 128" "$old" bench train --variant $v --model $model --threads 16 --seconds 3 --json
  record "$v new batch 1024" "$new" bench train --variant $v --model $model --threads 1,4,16 --batch 1024 --seconds 3 --json
  for t in 1 16; do
    record "$v torch cpu $t" python3 scripts/bench_torch_train.py models/$v/model.json --threads $t --seconds 3
  done
  for b in 128 1024; do
    record "$v torch cuda $b" python3 scripts/bench_torch_train.py models/$v/model.json --device cuda --batch $b --seconds 3
  done
done
TIMEFORMAT='wall %R s, user %U s, sys %S s'
{ time "$new" train --variant extreme --init models/extreme/model.bpk --run /tmp/run-x --minutes 2 >/tmp/train.out 2>&1; } 2>"$out/train-time.txt"
"$new" status --run /tmp/run-x >"$out/status.txt" 2>&1
tail -c 200000 /tmp/train.out >"$out/train-out.txt"
tar -czf "$out/run.tgz" -C /tmp/run-x log.txt metrics.jsonl run.json config.toml
