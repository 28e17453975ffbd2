#!/bin/bash
# The README's performance summary, 2026-12-01: a release build of commit c31163e
# (target/release/oxo), the 2-core CI machine (AMD EPYC Zen 4, AVX-512) otherwise idle,
# onnxruntime 1.32.0 from its Python package. Run from the repository root.
set -eu
here=$(dirname "$0")
OXO=${OXO:-target/release/oxo}
# One core, batch 64, the shipped nets: inference on onnxruntime and burn, training on burn
# (batch 128), with their FLOP rates.
taskset -c 1 "$OXO" bench nn --model models/ultimate/model.bpk --engine both --batches 64 \
  --seconds 3 --json > "$here/nn-ultimate-1core.json"
taskset -c 1 "$OXO" bench nn --variant extreme --model models/extreme/model.bpk --engine both \
  --batches 64 --seconds 3 --json > "$here/nn-extreme-1core.json"
# Random playouts, one thread and both.
"$OXO" bench rules --json --seconds 2 > "$here/rules.jsonl"
# oxo's engines against Python onnxruntime on the same graph, one core, interleaved.
scripts/bench-engines.sh "$OXO" 1 2 > "$here/engines.txt"
# Where a training step's time goes (docs/performance.md): perf's software clock, the delay
# skipping the matmul peak and inference so the samples are the training phase.
taskset -c 1 perf record -e cpu-clock -F 2000 -D 21000 -o /tmp/perf.data "$OXO" bench nn \
  --model models/ultimate/model.bpk --engine onnxruntime --batches 1 --seconds 10
perf report -i /tmp/perf.data --sort dso,symbol --stdio | grep -v '^$' | head -60 \
  > "$here/train-profile-flat.txt"
taskset -c 1 perf record -e cpu-clock -F 300 --call-graph dwarf,16384 -D 21000 -o /tmp/perf2.data \
  "$OXO" bench nn --model models/ultimate/model.bpk --engine onnxruntime --batches 1 --seconds 10
perf report -i /tmp/perf2.data --children --sort symbol --stdio -g none | grep -v '^$' | head -80 \
  > "$here/train-profile-children.txt"
# train-profile-flat-conv-by-matmul.txt is the first profile of a build whose training ran
# each convolution as one matrix product over the batch (not merged; docs/performance.md).
