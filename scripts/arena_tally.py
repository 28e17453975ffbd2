#!/usr/bin/env python3
"""Tallies one agent's record over `oxo arena` result files: the net's wins, draws and losses
when a match was split into many small matches (one per core or per seed).

    usage: scripts/arena_tally.py [--agent I] [--summary FILE] [--pair A B] LABEL GLOB [LABEL GLOB ...]

Each LABEL names the result files its GLOB matches (quote the GLOB). The tallied agent is
index I of each match's `--agents`, or without `--agent` the one `net` agent of each match
(a match of two nets needs `--agent`); a win counts 1, a draw 1/2. In scoring variants
(result files with `scores`) each record also gives the agent's mean margin, its points minus
the opponent's, with its standard error: a statistic that tells close settings apart in far
fewer games than the score does. One line per label is printed; `--summary` also writes them
as JSON. `--pair A B` compares label B with label A game by game, on the games both played
from the same seed, opening and side.
"""

import argparse
import glob
import json
import statistics
import sys


def mean_se(values: list, digits: int) -> tuple:
    """The mean of `values` and its standard error, rounded to `digits` decimals."""
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return round(statistics.fmean(values), digits), round(spread / len(values) ** 0.5, digits)


def record(wins: int, draws: int, losses: int, margins: list) -> dict:
    """A record with its game count, score (a draw counts 1/2) and, where the games have
    scores, the mean margin and its standard error."""
    games = wins + draws + losses
    score = round((wins + draws / 2) / max(games, 1), 4)
    out = {"wins": wins, "draws": draws, "losses": losses, "games": games, "score": score}
    if margins:
        out["margin"], out["margin_se"] = mean_se(margins, 3)
    return out


def net_agent(report: dict, path: str) -> int:
    """The index of the one `net` agent of a match (its standings are in `--agents` order)."""
    nets = [i for i, s in enumerate(report["standings"]) if s["agent"].split(":")[0] == "net"]
    if len(nets) != 1:
        agents = ", ".join(s["agent"] for s in report["standings"])
        sys.exit(f"{path}: {len(nets)} net agents ({agents}); say which with --agent I")
    return nets[0]


def games(pattern: str, agent) -> list:
    """Every game of the result files `pattern` matches, from agent index `agent`'s side
    (None: each match's net agent): dicts of `key` (the file's seed, the opening, the side
    played: a game's pair in another match from the same openings), `side` ("x" or "o"),
    `points` (1, 1/2 or 0) and, where the games have scores, `margin`."""
    paths = sorted(glob.glob(pattern))
    if not paths:
        sys.exit(f"no result file matches {pattern}")
    out = []
    for path in paths:
        report = json.load(open(path))
        index = net_agent(report, path) if agent is None else agent
        for game in report["games"]:
            side = "x" if game["x"] == index else "o"
            lost = game["result"] in ("x", "o") and game["result"] != side
            points = 1.0 if game["result"] == side else 0.0 if lost else 0.5
            played = {"key": (report.get("seed"), game["opening"], side), "side": side,
                      "points": points}
            if game.get("scores"):
                x_margin = game["scores"][0] - game["scores"][1]
                played["margin"] = x_margin if side == "x" else -x_margin
            out.append(played)
    return out


def tally(played: list) -> dict:
    """The record of the games `games` read, in all and by the side the agent played
    (`as_x`, `as_o`: X moves first)."""
    def side_record(played: list) -> dict:
        points = [g["points"] for g in played]
        margins = [g["margin"] for g in played if "margin" in g]
        return record(points.count(1.0), points.count(0.5), points.count(0.0), margins)
    return {
        **side_record(played),
        "as_x": side_record([g for g in played if g["side"] == "x"]),
        "as_o": side_record([g for g in played if g["side"] == "o"]),
    }


def paired(first: list, second: list) -> dict:
    """`second` against `first` game by game, over the games both played (the same seed,
    opening and side): the mean difference of points a game and of margins, with standard
    errors, and how many results differ. A game played twice in one list keeps its last."""
    a, b = ({g["key"]: g for g in played} for played in (first, second))
    both = sorted(a.keys() & b.keys())
    out = {"games": len(both), "differ": sum(a[k]["points"] != b[k]["points"] for k in both)}
    if both:
        out["points"], out["points_se"] = mean_se([b[k]["points"] - a[k]["points"] for k in both], 4)
        margins = [b[k]["margin"] - a[k]["margin"] for k in both if "margin" in a[k]]
        if margins:
            out["margin"], out["margin_se"] = mean_se(margins, 4)
    return out


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
    parser.add_argument("--pair", nargs=2, action="append", default=[], metavar=("A", "B"),
                        help="also compare label B with label A game by game (repeatable)")
    parser.add_argument("pairs", nargs="+", metavar="LABEL GLOB")
    args = parser.parse_args()
    if len(args.pairs) % 2:
        parser.error("give each LABEL its GLOB")
    labels, patterns = args.pairs[0::2], args.pairs[1::2]
    unknown = {label for pair in args.pair for label in pair} - set(labels)
    if unknown:
        parser.error(f"--pair names labels not given: {', '.join(sorted(unknown))}")
    played = {label: games(p, args.agent) for label, p in zip(labels, patterns)}
    summary = {label: tally(games_of) for label, games_of in played.items()}
    for label, t in summary.items():
        print(f"{label}: {line(t)} in {t['games']} games, {100 * t['score']:.1f}%"
              f"{margin(t)} (as X {line(t['as_x'])}{margin(t['as_x'])}; "
              f"as O {line(t['as_o'])}{margin(t['as_o'])})")
    for first, second in args.pair:
        p = paired(played[first], played[second])
        key = f"{second} against {first}"
        summary[key] = p
        detail = f", margin {p['margin']:+.2f} (se {p['margin_se']:.2f})" if "margin" in p else ""
        print(f"{key}, game by game: {p['games']} games, {p['differ']} results differ, "
              f"{100 * p.get('points', 0):+.1f} points a game (se {100 * p.get('points_se', 0):.1f}){detail}")
    if args.summary:
        with open(args.summary, "w") as out:
            json.dump(summary, out, indent=2)


if __name__ == "__main__":
    main()
