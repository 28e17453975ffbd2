"""Renders arena results (oxo arena --out PREFIX writes PREFIX.json) as the README's strength
table: for each file, the network agent's results against every other agent, with Elo.

usage: python3 scripts/strength_table.py docs/strength/VARIANT.json ...
"""
import json
import sys


def net_rows(report):
    """One Markdown row per opponent of the network agent (the agent whose spec starts net:)."""
    nets = [s["agent"] for s in report["standings"] if s["agent"].startswith("net:")]
    if len(nets) != 1:
        sys.exit(f"{report['variant']}: expected one net: agent in the round robin, found {nets}")
    net = nets[0]
    elo = {s["agent"]: s["rating"] for s in report["standings"]}
    rows = []
    for p in report["pairings"]:
        if net not in (p["a"], p["b"]):
            continue
        if p["a"] == net:
            other, wins, losses = p["b"], p["a_wins"], p["b_wins"]
        else:
            other, wins, losses = p["a"], p["b_wins"], p["a_wins"]
        games = wins + p["draws"] + losses
        score = (wins + p["draws"] / 2) / games
        r = elo[other]
        rows.append(
            f"| {report['variant']} | `{other}` | {wins}-{p['draws']}-{losses} | "
            f"{100 * score:.0f}% | {r['elo']:.0f} ({r['low']:.0f}..{r['high']:.0f}) |"
        )
    r = elo[net]
    rows.append(
        f"| {report['variant']} | **the model** `{net}` | | | "
        f"**{r['elo']:.0f}** ({r['low']:.0f}..{r['high']:.0f}) |"
    )
    return rows


def main(paths):
    print("| variant | opponent | model's W-D-L | model's score | opponent's Elo (95%) |")
    print("|---|---|---|---|---|")
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        for row in net_rows(report):
            print(row)


if __name__ == "__main__":
    main(sys.argv[1:])
