#!/bin/sh
# adjacency, 2026-12-07: who takes the extra-turn squares in the default agent's games against
# alphabeta:ms=100 (the 160 games of the README's record, the model's int8 graph at 400 ms) and
# in each agent's games against itself. Writes extra_turns.txt. Run from the repository root.
set -eu
here=$(dirname "$0")
D=lab/strength
F=$D/adjacency-2026-11-27f-first-move-advantage
python3 "$here/extra_turns.py" \
  "the default agent against alphabeta:ms=100 (agent 1 in these files)" \
  "$D/adjacency-2026-11-2[79][eg]-int8-*/int8-default-*ab100-*40*.json" 1 \
  "alphabeta:ms=100 against itself (agent 0)" "$F/ab100-vs-ab100-100games.json" 0 \
  "the default agent (fp32) against itself (agent 0)" "$F/net-vs-net-ms400-20games.json" 0 \
  > "$here/extra_turns.txt"
