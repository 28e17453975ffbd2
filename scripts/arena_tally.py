#!/usr/bin/env python3
"""Tallies one agent's record over `oxo arena` result files: the net's wins, draws and losses
when a match was split into many small matches (one per core or per seed).

    usage: scripts/arena_tally.py [--agent I] [--summary FILE] LABEL GLOB [LABEL GLOB ...]

Each LABEL names the result files its GLOB matches (quote the GLOB). The tallied agent is
index I of each match's `--agents` (default 1, the net in `--agents OPPONENT,net:...`); a win
counts 1, a draw 1/2. One line per label is printed; `--summary` also writes them as JSON.
"""

import argparse
import glob
import json


def tally(pattern: str, agent: int) -> dict:
    """The agent's record over every game of the result files `pattern` matches."""
    wins = draws = losses = 0
    for path in sorted(glob.glob(pattern)):
        for game in json.load(open(path))["games"]:
            side = "x" if game["x"] == agent else "o"
            if game["result"] == side:
                wins += 1
            elif game["result"] in ("x", "o"):
                losses += 1
            else:
                draws += 1
    games = wins + draws + losses
    score = round((wins + draws / 2) / max(games, 1), 4)
    return {"wins": wins, "draws": draws, "losses": losses, "games": games, "score": score}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agent", type=int, default=1)
    parser.add_argument("--summary")
    parser.add_argument("pairs", nargs="+", metavar="LABEL GLOB")
    args = parser.parse_args()
    if len(args.pairs) % 2:
        parser.error("give each LABEL its GLOB")
    labels, patterns = args.pairs[0::2], args.pairs[1::2]
    summary = {label: tally(p, args.agent) for label, p in zip(labels, patterns)}
    for label, t in summary.items():
        print(f"{label}: net {t['wins']}-{t['draws']}-{t['losses']} in {t['games']} games, "
              f"{100 * t['score']:.1f}%")
    if args.summary:
        with open(args.summary, "w") as out:
            json.dump(summary, out, indent=2)


if __name__ == "__main__":
    main()
