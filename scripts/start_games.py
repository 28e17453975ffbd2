#!/usr/bin/env python3
"""Writes a run config whose self-play starts inside recorded games (`selfplay.start_games`).

Picks games out of `oxo arena` result files: those in which an agent whose name starts
with AGENT played SIDE and RESULT (lost, by default), against an agent whose name does not
start with AGENT, each distinct game once. Prints BASE (a run config) with `start_games`
and `start_game_prob` added at the end of its [selfplay] table; `oxo train` checks every
move when it reads the config.

    scripts/start_games.py --base configs/adjacency.toml --prob 0.5 \
        --side o --agent net 'lab/strength/adjacency*/**/*.json' > run.toml
"""

import argparse
import glob
import json
import sys
import tomllib

RESULTS = {"lost": "lost", "won": "won", "drew": "drew", "any": None}


def outcome_for(game, side):
    """'won', 'lost' or 'drew' for the player of SIDE ('x' or 'o') in an arena game."""
    if game["result"] == "draw":
        return "drew"
    return "won" if game["result"] == side else "lost"


def picked_games(files, variant, side, agent, result):
    """The distinct move lists of the games the options select, in file order."""
    seen, lines = set(), []
    for path in files:
        with open(path) as f:
            data = json.load(f)
        games = data.get("games") if isinstance(data, dict) else None
        if not isinstance(games, list) or data.get("variant") != variant:
            continue
        names = [s["agent"] for s in data["standings"]]
        other = "o" if side == "x" else "x"
        for game in games:
            if "moves" not in game:
                continue
            mine, theirs = names[game[side]], names[game[other]]
            if not mine.startswith(agent) or theirs.startswith(agent):
                continue
            if result and outcome_for(game, side) != result:
                continue
            line = " ".join(game["moves"])
            if line not in seen:
                seen.add(line)
                lines.append(line)
    return lines


def with_start_games(base_text, lines, prob):
    """BASE's text with the start games appended to its [selfplay] table."""
    block = [f"# {len(lines)} games picked by scripts/start_games.py.",
             f"start_game_prob = {prob}", "start_games = ["]
    block += [f'  "{line}",' for line in lines] + ["]"]
    out, inside, placed = [], False, False
    for row in base_text.splitlines():
        header = row.strip().startswith("[")
        if header and inside and not placed:
            out += block + [""]
            placed = True
        if header:
            inside = row.strip() == "[selfplay]"
        out.append(row)
    if inside and not placed:
        out += block
        placed = True
    if not placed:
        sys.exit("start_games.py: the base config has no [selfplay] table")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the run config to add the games to")
    parser.add_argument("--prob", type=float, default=0.5, help="selfplay.start_game_prob")
    parser.add_argument("--side", choices=["x", "o"], default="o")
    parser.add_argument("--agent", default="net", help="prefix of the agent's name")
    parser.add_argument("--result", choices=sorted(RESULTS), default="lost")
    parser.add_argument("patterns", nargs="+", help="arena result files (globs, ** allowed)")
    args = parser.parse_args()
    if not 0.0 <= args.prob <= 1.0:
        sys.exit(f"start_games.py: --prob {args.prob} is out of range: allowed 0..=1")
    with open(args.base) as f:
        base_text = f.read()
    variant = tomllib.loads(base_text)["variant"]
    files = sorted({p for pattern in args.patterns for p in glob.glob(pattern, recursive=True)})
    lines = picked_games(files, variant, args.side, args.agent, RESULTS[args.result])
    if not lines:
        sys.exit(f"start_games.py: no {variant} game in {len(files)} files matches")
    print(f"start_games.py: {len(lines)} games from {len(files)} files", file=sys.stderr)
    sys.stdout.write(with_start_games(base_text, lines, args.prob))


if __name__ == "__main__":
    main()
