#!/usr/bin/env python3
"""adjacency: who takes the four extra-turn squares, and when, in recorded `oxo arena` games.

    usage: extra_turns.py LABEL 'GLOB' A [LABEL 'GLOB' A ...]    (from the repository root)

Each GLOB names result files whose games list their moves; A is the index of the agent (as
the games' `x` and `o` number them) whose share is counted. For each LABEL it replays the
games with scripts/oxo_onnx.py's port of the rules and prints, for A as X and as O: how many
of the 4 extra-turn squares A and its opponent took a game, the mean ply they took them at,
the points those placements scored, A's mean final margin, and that margin by how many A took.
Why it matters: a placement on an extra-turn square does not pass the turn, so each one taken
is a placement more for its taker (X makes 58 other placements and O 57, whoever takes them).
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../scripts"))
import oxo_onnx  # noqa: E402


def replay(moves: list[str], agent_is_x: bool):
    """(the agent's extra-turn placements, the opponent's, the agent's final margin); each
    placement as (ply, points)."""
    game = oxo_onnx.Adjacency()
    mine, theirs = [], []
    for ply, text in enumerate(moves):
        mover, before = game.to_move, game.points[game.to_move]
        cell = oxo_onnx.Adjacency.parse_action(text)
        game.play(cell)
        if cell in oxo_onnx.ADJ_EXTRA_TURN:
            side = mine if (mover == 0) == agent_is_x else theirs
            side.append((ply + 1, game.points[mover] - before))
    margin = game.points[0] - game.points[1]
    return mine, theirs, margin if agent_is_x else -margin


def mean(values):
    return sum(values) / len(values) if values else float("nan")


def report(label: str, pattern: str, agent: str) -> None:
    games = {"X": [], "O": []}
    for path in sorted(glob.glob(pattern)):
        for g in json.load(open(path))["games"]:
            if "moves" not in g or agent not in (str(g["x"]), str(g["o"])):
                continue
            as_x = str(g["x"]) == agent
            games["X" if as_x else "O"].append(replay(g["moves"], as_x))
    print(f"{label}:")
    for colour, played in games.items():
        if not played:
            continue
        n = len(played)
        count = lambda side: sum(len(g[side]) for g in played) / n  # noqa: E731
        plies = lambda side: mean([p for g in played for p, _ in g[side]])  # noqa: E731
        points = lambda side: sum(s for g in played for _, s in g[side]) / n  # noqa: E731
        by_taken = {}
        for mine, _, margin in played:
            by_taken.setdefault(len(mine), []).append(margin)
        print(f"  as {colour}, {n} games: takes {count(0):.2f} of 4 (the opponent {count(1):.2f}),"
              f" at ply {plies(0):.0f} ({plies(1):.0f}), scoring {points(0):.1f} points a game"
              f" ({points(1):.1f}); margin {mean([g[2] for g in played]):+.1f}")
        print("    margin by squares taken: " + ", ".join(
            f"{k}: {mean(v):+.1f} in {len(v)}" for k, v in sorted(by_taken.items())))


def main() -> None:
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit(__doc__)
    for label, pattern, agent in zip(args[::3], args[1::3], args[2::3]):
        report(label, pattern, agent)


if __name__ == "__main__":
    main()
