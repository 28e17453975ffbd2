#!/usr/bin/env bash
# `oxo train --variant extreme` on this machine's cores with OLD (self-play's, the gate's and
# the trainer's threads at one priority) and NEW (self-play's and the gate's at nice 10), one
# run after the other, MINUTES each, warm-started from the shipped model: with extreme's
# config (self-play sets the pace on 2 cores) and with trainer-bound.toml (three times the
# training steps a generation, so the trainer sets it). Writes OUT/<config>-<old|new>/ (the
# run's metrics and log) and OUT/<config>-<old|new>.time (`/usr/bin/time -v`), then
# summary.py's table.
#
#     lab/bench/2026-12-06/trainer-priority/run.sh OLD NEW MINUTES OUT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
old=$1 new=$2 minutes=$3 out=$4
mkdir -p "$out"
for config in trainer-bound shipped; do
  file=$here/../../../../configs/extreme.toml
  [ "$config" = trainer-bound ] && file=$here/trainer-bound.toml
  for which in old new; do
    bin=$old; [ "$which" = new ] && bin=$new
    run=$out/$config-$which
    rm -rf "$run"
    /usr/bin/time -v "$bin" train --variant extreme --config "$file" --init models/extreme/model.bpk \
      --run "$run" --minutes "$minutes" >"$run.log" 2>"$run.time" || true
    rm -rf "$run/games" "$run/trainer" "$run/models" "$run/best" "$run/tb"
  done
done
python3 "$here/summary.py" "$out"
