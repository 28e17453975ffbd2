#!/bin/bash
# Plays a queue of `oxo arena` matches, one at a time on each of the given cores (taskset),
# so that no two matches share a core and time-limited agents get the time they ask for.
#
#   OXO=target/release/oxo scripts/arena_queue.sh VARIANT OUTDIR CORES < MATCHES
#
# CORES: a comma-separated list of core numbers, e.g. 0,1. Each line of MATCHES is
# `NAME AGENTS GAMES SEED`: it writes OUTDIR/NAME.json, .svg and .log. A worker claims a
# match by making OUTDIR/NAME.claim before playing it and skips a claimed one; to play a
# queue stopped part way again, remove the claims of the matches that did not finish.
# Returns once every match has finished.
set -u
variant=$1 out=$2 cores=$3
mkdir -p "$out"
queue=$(cat)
worker() {
  local core=$1
  while read -r name agents games seed; do
    [ -n "$name" ] || continue
    mkdir "$out/$name.claim" 2>/dev/null || continue
    taskset -c "$core" "$OXO" arena --variant "$variant" --agents "$agents" --games "$games" \
      --threads 1 --seed "$seed" --out "$out/$name" > "$out/$name.log" 2>&1
  done <<< "$queue"
}
for core in ${cores//,/ }; do worker "$core" & done
wait
