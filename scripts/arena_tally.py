#!/usr/bin/env python3
"""Tallies one agent's record over `oxo arena` result files: the net's wins, draws and losses
when a match was split into many small matches (one per core or per seed).

    usage: scripts/arena_tally.py [--agent I] [--summary FILE] LABEL GLOB [LABEL GLOB ...]

Each LABEL names the result files its GLOB matches (quote the GLOB). The tallied agent is
index I of each match's `--agents`, or without `--agent` the one `net` agent of each match
(a match of two nets needs `--agent`); a win counts 1, a draw 1/2. In scoring variants
(result files with `scores`) each record also gives the agent's mean margin, its points minus
the opponent's, with its standard error: a statistic that tells close settings apart in far
fewer games than the score does. One line per label is printed; `--summary` also writes them
as JSON.
"""

import argparse
import glob
import json
import statistics
import sys


def record(wins: int, draws: int, losses: int, margins: list) -> dict:
    """A record with its game count, score (a draw counts 1/2) and, where the games have
    scores, the mean margin and its standard error."""
    games = wins + draws + losses
    score = round((wins + draws / 2) / max(games, 1), 4)
    out = {"wins": wins, "draws": draws, "losses": losses, "games": games, "score": score}
    if margins:
        out["margin"] = round(statistics.fmean(margins), 3)
        spread = statistics.stdev(margins) if len(margins) > 1 else 0.0
        out["margin_se"] = round(spread / len(margins) ** 0.5, 3)
    return out


def net_agent(report: dict, path: str) -> int:
    """The index of the one `net` agent of a match (its standings are in `--agents` order)."""
    nets = [i for i, s in enumerate(report["standings"]) if s["agent"].split(":")[0] == "net"]
    if len(nets) != 1:
        agents = ", ".join(s["agent"] for s in report["standings"])
        sys.exit(f"{path}: {len(nets)} net agents ({agents}); say which with --agent I")
    return nets[0]


def tally(pattern: str, agent) -> dict:
    """The record of agent index `agent` (None: each match's net agent) over every game of
    the result files `pattern` matches, in all and by the side it played (`as_x`, `as_o`: X
    moves first)."""
    counts = {side: [0, 0, 0] for side in "xo"}  # wins, draws, losses
    margins = {side: [] for side in "xo"}
    paths = sorted(glob.glob(pattern))
    if not paths:
        sys.exit(f"no result file matches {pattern}")
    for path in paths:
        report = json.load(open(path))
        index = net_agent(report, path) if agent is None else agent
        for game in report["games"]:
            side = "x" if game["x"] == index else "o"
            if game.get("scores"):
                x_margin = game["scores"][0] - game["scores"][1]
                margins[side].append(x_margin if side == "x" else -x_margin)
            if game["result"] == side:
                counts[side][0] += 1
            elif game["result"] in ("x", "o"):
                counts[side][2] += 1
            else:
                counts[side][1] += 1
    total = record(*(x + o for x, o in zip(counts["x"], counts["o"])), margins["x"] + margins["o"])
    return {
        **total,
        "as_x": record(*counts["x"], margins["x"]),
        "as_o": record(*counts["o"], margins["o"]),
    }


def line(t: dict) -> str:
    """`W-D-L` of a record."""
    return f"{t['wins']}-{t['draws']}-{t['losses']}"


def margin(t: dict) -> str:
    """A record's mean margin and its standard error, where known."""
    return f", margin {t['margin']:+.2f} (se {t['margin_se']:.2f})" if "margin" in t else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--agent", type=int, help="the tallied agent's index in --agents")
    parser.add_argument("--summary")
    parser.add_argument("pairs", nargs="+", metavar="LABEL GLOB")
    args = parser.parse_args()
    if len(args.pairs) % 2:
        parser.error("give each LABEL its GLOB")
    labels, patterns = args.pairs[0::2], args.pairs[1::2]
    summary = {label: tally(p, args.agent) for label, p in zip(labels, patterns)}
    for label, t in summary.items():
        print(f"{label}: {line(t)} in {t['games']} games, {100 * t['score']:.1f}%"
              f"{margin(t)} (as X {line(t['as_x'])}{margin(t['as_x'])}; "
              f"as O {line(t['as_o'])}{margin(t['as_o'])})")
    if args.summary:
        with open(args.summary, "w") as out:
            json.dump(summary, out, indent=2)


if __name__ == "__main__":
    main()
