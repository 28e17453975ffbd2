#!/usr/bin/env python3
"""Finds where an agent's lost games turned: for each game the agent lost in an `oxo arena`
result file, the exact result (perfect play by both sides) of the positions of its last
plies, so that a loss thrown away in the endgame is told from one decided earlier.

    usage: scripts/endgame_turns.py OXO_BINARY RESULT.json [--agent I] [--plies N] [--depth D]

The positions are replayed from the game's recorded `moves` into `oxo gtp`, whose agent
`alphabeta:depth=D` then plays both sides to the end: with D at least the plies left, it
searches every line to the end, so the end it reaches is the position's exact result. Only
the last N plies of each game are examined (default 10, at most D). The agent examined is
index I of the match's `--agents` (default 1, the net in `--agents OPPONENT,net:...`).

For each lost game one line: the exact result, for the agent, of the position N plies before
the end and each later one; `W` won, `D` drawn, `L` lost, `*` where the agent moved. A game
whose first letter is W or D was thrown away within the last N plies; the agent's move
after the last W (or D) before an L is the one that threw it away.
"""

import argparse
import json
import subprocess
import sys

from gtp_client import ask


def exact_result(engine: subprocess.Popen, moves: list) -> tuple:
    """Who moves (`x` or `o`) in the position after `moves`, and the result (`x`, `o` or
    `draw`) of perfect play from it."""
    ask(engine, "clear_board")
    for move in moves:
        ask(engine, f"play {move}")
    mover = ask(engine, "to_move")
    while (result := ask(engine, "result")) == "none":
        ask(engine, "genmove")
    return mover, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("oxo", help="the oxo binary")
    parser.add_argument("result", help="an `oxo arena` result file with recorded moves")
    parser.add_argument("--agent", type=int, default=1, help="the agent examined (default 1)")
    parser.add_argument("--plies", type=int, default=10, help="last plies examined (default 10)")
    parser.add_argument("--depth", type=int, default=12, help="alphabeta's depth (default 12)")
    args = parser.parse_args()
    if not 1 <= args.plies <= args.depth:
        sys.exit(f"--plies must lie in 1..=--depth ({args.depth}), got {args.plies}")
    report = json.load(open(args.result))
    agent = report["standings"][args.agent]["agent"]
    command = [args.oxo, "gtp", "--variant", report["variant"],
               "--agent", f"alphabeta:depth={args.depth}"]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    print(f"{agent}: the exact result of its lost games' last {args.plies} positions")
    thrown = lost = 0
    for game in report["games"]:
        if args.agent not in (game["x"], game["o"]):
            continue
        side = "x" if game["x"] == args.agent else "o"
        if game["result"] in (side, "draw"):
            continue
        if "moves" not in game:
            sys.exit(f"{args.result} records no moves (an oxo from before they were recorded)")
        lost += 1
        moves = game["moves"]
        line = ""
        for ply in range(max(0, len(moves) - args.plies), len(moves)):
            mover, result = exact_result(engine, moves[:ply])
            letter = "W" if result == side else ("D" if result == "draw" else "L")
            line += letter + ("*" if mover == side else " ")
        thrown += line[0] != "L"
        print(f"opening {game['opening']}, {side}, scores {game.get('scores')}: {line}")
    ask(engine, "quit")
    engine.wait()
    print(f"{thrown} of {lost} lost games were won or drawn {args.plies} plies before the end")


if __name__ == "__main__":
    main()
