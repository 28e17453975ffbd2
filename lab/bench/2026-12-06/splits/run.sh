#!/usr/bin/env bash
# `oxo train --variant V` as typed on this 2-core machine, MINUTES minutes in a fresh run
# directory, by two builds in turn: OLD (self-play on the cores the trainer does not have:
# one each) and NEW (self-play on every core, below the trainer's priority). Each line of
# OUT/summary.txt: the busy share, games and training steps (lab/bench/2026-12-02/busy-train.sh).
# Run from the repository root:  lab/bench/2026-12-06/splits/run.sh OLD NEW MINUTES OUT VARIANT...
set -euo pipefail
old=$1 new=$2 minutes=$3 out=$4
shift 4
mkdir -p "$out"
for variant in "$@"; do
  for build in old new; do
    oxo=$old; [ $build = new ] && oxo=$new
    lab/bench/2026-12-02/busy-train.sh "$oxo" "$variant" "$minutes" "$out/$variant-$build" \
      > "$out/$variant-$build.txt" 2>&1
    echo "$variant $build: $(grep -h 'busy' "$out/$variant-$build.txt" | tail -1); $(tail -1 "$out/$variant-$build.txt")" |
      tee -a "$out/summary.txt"
  done
done
