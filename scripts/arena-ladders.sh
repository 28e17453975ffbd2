#!/usr/bin/env bash
# Regenerates the handcrafted-agent ladders in README.md: one round robin per variant with
# load-independent budgets (alphabeta by depth, uct by simulations), results in lab/arena/.
#   usage: scripts/arena-ladders.sh [OXO_BINARY] [GAMES_PER_PAIRING] [VARIANT]
set -euo pipefail
cd "$(dirname "$0")/.."
oxo=${1:-target/release/oxo}
games=${2:-40}
only=${3:-}
run() { [ -z "$only" ] || [ "$only" = "$1" ] || return 0; "$oxo" arena --variant "$1" --agents "$2" --games "$games" --out "lab/arena/$1" "${@:3}"; }
run tictactoe random,greedy,alphabeta:depth=9,uct:sims=2000,solver
run paytoplay random,greedy,alphabeta:depth=6,uct:sims=2000,solver
run ultimate random,greedy,alphabeta:depth=4,uct:sims=2000
run xando random,greedy,alphabeta:depth=3,uct:sims=20000
run adjacency random,greedy,alphabeta:depth=3,uct:sims=10000
run extreme random,greedy,alphabeta:depth=3,uct:sims=10000
run connect4 random,greedy,alphabeta:depth=6,uct:sims=10000,solver
