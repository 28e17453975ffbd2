#!/usr/bin/env python3
"""adjacency: where the first player's advantage is made, from recorded `oxo arena` games.

    usage: placements.py LABEL 'GLOB' X [LABEL 'GLOB' X ...]    (from the repository root)

Each GLOB names result files whose games list their moves; X is the index of the agent (in
the match's `--agents`) whose games as X are counted, or `any`. For each LABEL it replays the
games with scripts/oxo_onnx.py's port of the rules and prints, X's points minus O's:

- by phase, the sum over placements 1-10, 11-20, ..., 111-119 (mean over the games);
- the mean points of the game's last placement and who made it;
- X's mean count of placements and of extra-turn squares;
- the mean final margin X minus O, with its standard error, and X's score.

Rules arithmetic behind the figures: 119 cells are played, 4 of them extra-turn squares, so
the turn passes 114 times before the last placement (when that is not an extra-turn square)
and X, who moves first, makes it: 58 turns for X, 57 for O, each as long as 1 + the extra-turn
squares taken in it.
"""

import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../scripts"))
import oxo_onnx  # noqa: E402

PHASE = 10


def flows(moves: list[str]):
    """Per placement (mover, cell, points) of one game, replayed."""
    game = oxo_onnx.Adjacency()
    out = []
    for text in moves:
        mover, before = game.to_move, list(game.points)
        cell = oxo_onnx.Adjacency.parse_action(text)
        game.play(cell)
        out.append((mover, cell, game.points[mover] - before[mover]))
    return out, game.points


def report(label: str, pattern: str, x_agent: str) -> None:
    games = []
    for path in sorted(glob.glob(pattern)):
        games += [
            g for g in json.load(open(path))["games"]
            if "moves" in g and x_agent in ("any", str(g["x"]))
        ]
    if not games:
        print(f"{label}: no games with moves in {pattern}")
        return
    n = len(games)
    phases = [0.0] * 12
    last = last_by_x = x_count = x_extra = 0.0
    margins, score = [], 0.0
    for g in games:
        placements, points = flows(g["moves"])
        assert points == g["scores"], (points, g["scores"])
        for i, (mover, _, gain) in enumerate(placements):
            phases[min(i // PHASE, 11)] += gain if mover == 0 else -gain
        last += placements[-1][2]
        last_by_x += placements[-1][0] == 0
        x_count += sum(mover == 0 for mover, _, _ in placements)
        x_extra += sum(
            mover == 0 and cell in oxo_onnx.ADJ_EXTRA_TURN for mover, cell, _ in placements
        )
        margins.append(points[0] - points[1])
        score += 1.0 if points[0] > points[1] else 0.5 if points[0] == points[1] else 0.0
    mean = sum(margins) / n
    se = (sum((m - mean) ** 2 for m in margins) / (n - 1) / n) ** 0.5 if n > 1 else 0.0
    print(f"{label}: {n} games")
    print("  X minus O by placements 1-10 ... 111-119: "
          + " ".join(f"{p / n:+.1f}" for p in phases))
    print(f"  last placement: {last / n:.1f} points, made by X in {last_by_x / n:.0%}")
    print(f"  X's placements {x_count / n:.1f} of 119, extra-turn squares {x_extra / n:.2f} of 4")
    print(f"  final margin X minus O {mean:+.1f} (standard error {se:.1f}); X scores {score / n:.1%}")


def main() -> None:
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit(__doc__)
    for label, pattern, x_agent in zip(args[::3], args[1::3], args[2::3]):
        report(label, pattern, x_agent)


if __name__ == "__main__":
    main()
