#!/usr/bin/env python3
"""Self-play's results in each quarter of a run's self-play batches, from its metrics.jsonl:
X's and O's share of the wins and, where the run had self-play opponents
(`selfplay.opponents`), the net's record and mean margin against them.

Usage: scripts/selfplay_quarters.py RUN/metrics.jsonl
"""

import json
import sys


def quarters(batches):
    """The batches in four parts, the last taking what does not divide evenly."""
    size = len(batches) // 4
    return [batches[q * size:(q + 1) * size] if q < 3 else batches[3 * size:] for q in range(4)]


def line(q, part):
    """One quarter's line."""
    n = sum(r["games"] for r in part)
    x = sum(r["x_wins"] for r in part)
    o = sum(r["o_wins"] for r in part)
    text = f"quarter {q + 1}: {n} games, X won {100 * x / n:.1f}%, O {100 * o / n:.1f}%"
    games = sum(r.get("opponent_games", 0) for r in part)
    if games:
        w, l, d = (sum(r[f"opponent_net_{k}"] for r in part) for k in ("wins", "losses", "draws"))
        margin = sum(r["opponent_net_margin"] * r["opponent_games"] for r in part) / games
        text += (f"; the net against opponents: {games} games, {w}-{d}-{l} (W-D-L), "
                 f"{100 * (w + d / 2) / games:.1f}%, mean margin {margin:+.2f}")
    return text


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        rows = [json.loads(row) for row in f]
    batches = [r for r in rows if r.get("role") == "selfplay"]
    if len(batches) < 4:
        sys.exit(f"{sys.argv[1]}: {len(batches)} self-play batches; quarters need 4 at least")
    for q, part in enumerate(quarters(batches)):
        print(line(q, part))


if __name__ == "__main__":
    main()
