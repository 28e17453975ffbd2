#!/usr/bin/env bash
# Regenerates the strength table of the shipped models in README.md: for each variant with a
# model in models/VARIANT/, one round robin of the model (net:sims=SIMS with the playouts its
# model.json asks for: the default agent of `oxo play`) against the handcrafted agents at
# several budgets (and the solver where there is one); results and SVG charts in
# docs/strength/, the Markdown table on stdout (from the round robins VARIANT.json only: the
# goal matches in docs/strength/VARIANT-vs-AGENT.json are anchored at their own first agent).
#   usage: scripts/strength-table.sh [OXO_BINARY] [GAMES_PER_PAIRING] [VARIANT]
set -euo pipefail
cd "$(dirname "$0")/.."
oxo=${1:-target/release/oxo}
games=${2:-40}
only=${3:-}
sims=200
mkdir -p docs/strength
# ",rollouts=R,mix=W" when the model of variant $1 was trained with random playouts, and
# ",score=U" when with a score utility.
playouts() {
  python3 -c 'import json, sys
play = json.load(open(sys.argv[1])).get("play") or {}
params = ""
if play.get("rollouts"):
    params += ",rollouts=%s,mix=%s" % (play["rollouts"], play["rollout_weight"])
if play.get("score_utility"):
    params += ",score=%s" % play["score_utility"]
print(params)' "models/$1/model.json"
}
# Every variant run names, in order: the round robins the table is made of.
variants=()
run() {
  variants+=("$1")
  [ -z "$only" ] || [ "$only" = "$1" ] || return 0
  [ -f "models/$1/model.bpk" ] || { echo "no model ships for $1: skipped" >&2; return 0; }
  "$oxo" arena --variant "$1" --agents "$2,net:path=models/$1/model.bpk,sims=$sims$(playouts "$1")" \
    --games "$games" --out "docs/strength/$1" >&2
}
run tictactoe random,greedy,alphabeta:depth=9,uct:sims=200,uct:sims=2000,solver
run paytoplay random,greedy,alphabeta:depth=6,uct:sims=200,uct:sims=2000,solver
run ultimate random,greedy,alphabeta:depth=4,uct:sims=1000,uct:sims=10000
run xando random,greedy,alphabeta:depth=3,uct:sims=1000,uct:sims=10000
run adjacency random,greedy,alphabeta:depth=3,uct:sims=1000,uct:sims=10000
run extreme random,greedy,alphabeta:depth=3,uct:sims=10000
# The round robins only (docs/strength holds other matches too: goal matches, experiments).
tables=()
for variant in "${variants[@]}"; do
  if [ -f "docs/strength/$variant.json" ]; then tables+=("docs/strength/$variant.json"); fi
done
python3 scripts/strength_table.py "${tables[@]}"
