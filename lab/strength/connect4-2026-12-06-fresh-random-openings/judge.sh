#!/usr/bin/env bash
# Where the fresh run stands: its best net judged by the exact solver at the shipped model's
# default setting (200 random positions, 8 own games, 4 games as X against the solver; the
# first model's eval.sh), and its generation 200 as the first run's curve.sh judged its own
# (60 random positions, 2 own games), one a core at once.
# Usage (from the repository root): judge.sh OXO RUN
set -euo pipefail
oxo=$1 run=$2
here=lab/strength/connect4-2026-12-06-fresh-random-openings
taskset -c 0 "$oxo" judge --variant connect4 --agent "net:path=$run/models/best.bpk" \
  --random-positions 200 --own-games 8 --first-games 4 --out "$here/judge-best-default.json" &
taskset -c 1 "$oxo" judge --variant connect4 --agent "net:path=$run/models/gen-00200.bpk" \
  --random-positions 60 --own-games 2 --first-games 0 --out "$here/judge-gen-00200.json" &
wait
