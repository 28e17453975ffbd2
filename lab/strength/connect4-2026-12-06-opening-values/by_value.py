#!/usr/bin/env python3
"""Splits one agent's games of a connect4 match by the exact value of each game's opening.

    usage: by_value.py VALUES MATCH

VALUES is `solver` against itself on the same openings (same --seed and --opening-plies), so
its result for an opening is that opening's value with perfect play. MATCH is a match of the
agent (its first agent) against an opponent. Prints, by opening value and the agent's colour,
the agent's wins, draws and losses, and the games where the agent's result fell below the
opening's value for its colour (a won position not won, a drawn one lost).
"""

import collections
import json
import sys

RANK = {"win": 2, "draw": 1, "loss": 0}


def outcome(result: str, colour: str) -> str:
    """The game's result for the player of `colour` ('x' or 'o')."""
    if result == "draw":
        return "draw"
    return "win" if result == colour else "loss"


def main() -> None:
    values_path, match_path = sys.argv[1:3]
    values = json.load(open(values_path))
    match = json.load(open(match_path))
    if (values["seed"], values["opening_plies"]) != (match["seed"], match["opening_plies"]):
        sys.exit("the two files were played on different openings (seed or opening plies differ)")
    value = {g["opening"]: g["result"] for g in values["games"]}
    table = collections.defaultdict(collections.Counter)
    below = collections.Counter()
    for game in match["games"]:
        colour = "x" if game["x"] == 0 else "o"
        got = outcome(game["result"], colour)
        best = outcome(value[game["opening"]], colour)
        table[(best, colour)][got] += 1
        if RANK[got] < RANK[best]:
            below[colour] += 1
    print("openings by value for X:", dict(collections.Counter(value.values())))
    print("the agent's value | colour | wins-draws-losses")
    for (best, colour), counts in sorted(table.items()):
        print(f"{best:>5} | {colour} | {counts['win']}-{counts['draw']}-{counts['loss']}")
    print(f"games below the opening's value: {below['x']} as X, {below['o']} as O")


if __name__ == "__main__":
    main()
