#!/usr/bin/env bash
# Does the gate's setting tell a better connect4 net from a worse one the way a play-strength
# search does? Checkpoints of the shipped model's run (oxo train --variant connect4 --init
# models/connect4/model.bpk, lab/strength/connect4-2026-12-03-continuation/) play each other
# in paired games from 2-ply random openings, at the gate's setting (the config's gumbel
# search, gate.simulations = 16, the config's value: rollouts 16, mix 0.5) and at a play
# setting (puct, 800 simulations, the same value), on one core.
# Run from the repository root:  lab/strength/gate-agreement-2026-12-03/run.sh OXO RUN_DIR
set -euo pipefail
oxo=${1:-target/release/oxo}
models=${2:-/work/runs/connect4-cont}/models
here=lab/strength/gate-agreement-2026-12-03
net() { echo "net:path=$models/gen-$(printf %05d "$1").bpk,$2"; }
pairs=("10 295" "50 295" "150 295" "100 200")
for pair in "${pairs[@]}"; do
  read -r a b <<<"$pair"
  taskset -c 0 "$oxo" arena --variant connect4 --threads 1 --games 200 \
    --agents "$(net "$a" search=gumbel,sims=16),$(net "$b" search=gumbel,sims=16)" \
    --out "$here/gate-setting-gen$a-vs-gen$b-200games"
done
for pair in "${pairs[@]}"; do
  read -r a b <<<"$pair"
  taskset -c 0 "$oxo" arena --variant connect4 --threads 1 --games 60 \
    --agents "$(net "$a" search=puct,sims=800),$(net "$b" search=puct,sims=800)" \
    --out "$here/play-setting-gen$a-vs-gen$b-60games"
done
