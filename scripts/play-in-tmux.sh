#!/usr/bin/env bash
# Plays `oxo play` to the end in a real terminal (a tmux pane), typing like a person: name,
# sign, then for each turn 'moves' and the first legal move listed. Exits 0 when the game
# ends with "Game over", non-zero otherwise.
#   usage: scripts/play-in-tmux.sh OXO_BINARY VARIANT [SIGN]
set -Eeuo pipefail
oxo=$1 variant=$2 sign=${3:-x}
session="oxo-play-$$-$variant"
log=$(mktemp)
# A tmux server of its own (-L): runs one after another never meet a server that the last
# run's kill-session is shutting down.
tmux() { command tmux -L "$session" "$@"; }
socket="${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$session"
trap 'tmux kill-server 2>/dev/null || true; rm -f "$log" "$socket"' EXIT
# A command that fails ends the script (set -e): say which, so a failure is never silent.
trap 'echo "play-in-tmux.sh: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR

tmux new-session -d -s "$session" -x 220 -y 80 "$oxo play --variant $variant --agent greedy; echo '[exited]'; sleep 30"
screen() { tmux capture-pane -p -t "$session" -S -2000; }
# Waits until the screen's last non-empty line ends with $1 (or the game is over).
wait_for() {
  for _ in $(seq 1 2400); do
    local text last
    text=$(screen)
    # (`|| true`: a pane oxo has not drawn on yet has no non-empty line, and grep then fails)
    last=$(printf '%s\n' "$text" | { grep -v '^[[:space:]]*$' || true; } | tail -n 1)
    if [[ "$last" == *"$1" ]] || grep -q "Game over" <<<"$text"; then return 0; fi
    sleep 0.05
  done
  echo "timed out waiting for '$1'" >&2; screen >&2; return 1
}

# How many "Legal moves:" lists the screen and its history show.
legal_lists() { screen | grep -c "Legal moves:" || true; }

# Types text literally (-l: "F9" is a move, not the F9 key), then Enter.
type_line() { tmux send-keys -t "$session" -l "$1"; tmux send-keys -t "$session" Enter; }

wait_for "name?"; type_line "Tess"
wait_for "first)"; type_line "$sign"
for _ in $(seq 1 400); do
  wait_for "your move:"
  if screen | grep -q "Game over"; then break; fi
  # Wait for the new list itself: the old prompt is still the last line until oxo answers,
  # so waiting for the prompt alone races a loaded machine.
  listed=$(legal_lists)
  type_line "moves"
  for _ in $(seq 1 2400); do
    [ "$(legal_lists)" -gt "$listed" ] && break
    sleep 0.05
  done
  wait_for "your move:"
  move=$(screen | grep "Legal moves:" | tail -n 1 | sed 's/.*Legal moves: //' | awk '{print $1}')
  tmux clear-history -t "$session"
  type_line "$move"
  sleep 0.05
done
wait_for "[exited]"
screen | grep "Game over" || { echo "no result on screen" >&2; screen >&2; exit 1; }
