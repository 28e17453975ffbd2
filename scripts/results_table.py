#!/usr/bin/env python3
"""Writes the README's results tables from the result files that docs/results.toml names.

Two tables, each between its markers in README.md:
  <!-- results:models --> ... <!-- /results:models -->    the shipped models' headline figures
  <!-- results:ladder --> ... <!-- /results:ladder -->    the handcrafted agents' ladder

Every W-D-L, game count and agent spec comes from the `oxo arena` result files themselves
and every cost from models/VARIANT/model.json; the manifest says only which files make
which figure. Usage, from anywhere:
  scripts/results_table.py            print both tables
  scripts/results_table.py --write    rewrite them in README.md
  scripts/results_table.py --check    exit 1, with a diff, when README.md differs
"""

import argparse
import difflib
import glob
import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = {
    "default": "default agent vs `alphabeta:ms=100`",
    "ab500": "500 ms vs `alphabeta:ms=500`",
    "uct500": "500 ms vs `uct:ms=500`",
    "solver": "default agent vs `solver`",
}


class ManifestError(Exception):
    pass


def expand(entry):
    """The result files one manifest entry names: a path, or a pattern matching one or more."""
    if "*" not in entry:
        if not (ROOT / entry).is_file():
            raise ManifestError(f"{entry}: no such result file")
        return [entry]
    matches = sorted(str(Path(p).relative_to(ROOT)) for p in glob.glob(str(ROOT / entry)))
    if not matches:
        raise ManifestError(f"{entry}: the pattern matches no file")
    return matches


def model_record(path, opponent):
    """The net agent's (wins, draws, losses, spec) against `opponent` in one arena result file;
    the spec with the setting it resolved to where the file records it (`plays_with`)."""
    report = json.loads((ROOT / path).read_text())
    found = []
    for pairing in report.get("pairings", []):
        for me, them, wins, losses in (("a", "b", "a_wins", "b_wins"), ("b", "a", "b_wins", "a_wins")):
            if pairing[them] == opponent and pairing[me].startswith("net"):
                found.append((pairing[wins], pairing["draws"], pairing[losses], pairing[me]))
    if len(found) != 1:
        raise ManifestError(f"{path}: expected one net agent paired with {opponent}, found {len(found)}")
    wins, draws, losses, spec = found[0]
    resolved = [s.get("plays_with") for s in report["standings"] if s["agent"] == spec]
    if resolved and resolved[0]:
        return wins, draws, losses, f"`{spec}` (resolved: `{resolved[0].split(';')[0]}`)"
    return wins, draws, losses, f"`{spec}`"


def link_target(entry):
    """Where a cell links for one manifest entry: the file, or a pattern's folder."""
    return str(Path(entry).parent) + "/" if "*" in entry else entry


def figure_cell(figure):
    wins = draws = losses = 0
    specs = []
    for entry in figure["files"]:
        for path in expand(entry):
            w, d, l, spec = model_record(path, figure["opponent"])
            wins, draws, losses = wins + w, draws + d, losses + l
            if spec not in specs:
                specs.append(spec)
    games = wins + draws + losses
    score = 100 * (wins + draws / 2) / games
    links = " ".join(f"[{i}]({link_target(e)})" for i, e in enumerate(figure["files"], 1))
    cell = f"**{score:.1f}%** {wins}-{draws}-{losses} in {games}, {figure['date']} {links}"
    return cell, specs


def cost_cell(variant, cost):
    """The CPU-hours of a shipped model: its model.json's run seconds times the cores its runs
    had, or, for a chain of runs on different cores, the CPU time measured and its record."""
    link = f"[model.json](models/{variant}/model.json)"
    if isinstance(cost, dict):
        record = ROOT / cost["record"]
        if not record.is_file():
            raise ManifestError(f"{cost['record']}: no such cost record")
        return f"{cost['cpu_seconds'] / 3600:.2f} ({link}, [measured]({cost['record']}))"
    meta = json.loads((ROOT / "models" / variant / "model.json").read_text())
    provenance = meta["provenance"]
    seconds = provenance.get("total_stage_seconds", provenance["stage_seconds"])
    return f"{seconds * cost / 3600:.2f} ({link})"


def models_table(manifest):
    cells, played = {}, []
    for figure in manifest["figure"]:
        if figure["column"] not in COLUMNS:
            raise ManifestError(f"column {figure['column']!r}: expected one of {', '.join(COLUMNS)}")
        key = (figure["variant"], figure["column"])
        if key in cells:
            raise ManifestError(f"{key[0]} {key[1]}: two figures")
        cells[key], specs = figure_cell(figure)
        note = f" ({figure['note']})" if "note" in figure else ""
        played.append(f"- {figure['variant']}, {figure['column']}: " + ", ".join(specs) + note)
    columns = [c for c in COLUMNS if any(k[1] == c for k in cells)]
    lines = [
        "| variant | " + " | ".join(COLUMNS[c] for c in columns) + " | cost, CPU-hours |",
        "|---" * (len(columns) + 2) + "|",
    ]
    # One row per shipped model, in the order [cost] lists them.
    cores = manifest["cost"]["cores"]
    for variant in cores:
        row = [cells.get((variant, c), "") for c in columns]
        lines.append(f"| {variant} | " + " | ".join(row) + f" | {cost_cell(variant, cores[variant])} |")
    lines += ["", "The agents as the result files name them:", ""] + played
    return "\n".join(lines)


def ladder_table(manifest):
    lines = ["| variant | agents by Elo, 95% interval (anchor `random` = 0) | games a pairing | result |", "|---|---|---|---|"]
    for ladder in manifest["ladder"]:
        report = json.loads((ROOT / ladder["file"]).read_text())
        if report["variant"] != ladder["variant"]:
            raise ManifestError(f"{ladder['file']}: a {report['variant']} round robin, not {ladder['variant']}")
        standings = sorted(report["standings"], key=lambda s: s["rating"]["elo"])
        agents = " < ".join(
            f"`{s['agent']}` {s['rating']['elo']:.0f} ({s['rating']['low']:.0f}..{s['rating']['high']:.0f})"
            if s["agent"] != report["anchor"] else f"`{s['agent']}` 0"
            for s in standings
        )
        lines.append(f"| {ladder['variant']} | {agents} | {report['games_per_pair']} | [{ladder['date']}]({ladder['file']}) |")
    return "\n".join(lines)


def replace_between(text, name, body):
    begin, end = f"<!-- results:{name} -->", f"<!-- /results:{name} -->"
    if text.count(begin) != 1 or text.count(end) != 1:
        raise ManifestError(f"README.md: expected one {begin} and one {end}")
    head, rest = text.split(begin)
    _, tail = rest.split(end)
    return f"{head}{begin}\n{body}\n{end}{tail}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the tables in README.md")
    mode.add_argument("--check", action="store_true", help="exit 1 when README.md's tables differ")
    args = parser.parse_args()
    try:
        manifest = tomllib.loads((ROOT / "docs" / "results.toml").read_text())
        tables = {"models": models_table(manifest), "ladder": ladder_table(manifest)}
        if not (args.write or args.check):
            print("\n\n".join(tables.values()))
            return 0
        readme_path = ROOT / "README.md"
        readme = readme_path.read_text()
        wanted = readme
        for name, body in tables.items():
            wanted = replace_between(wanted, name, body)
    except (ManifestError, KeyError, OSError, ValueError) as error:
        print(f"results_table: {error}", file=sys.stderr)
        return 2
    if args.write:
        readme_path.write_text(wanted)
        return 0
    if wanted != readme:
        diff = difflib.unified_diff(readme.splitlines(), wanted.splitlines(), "README.md", "generated", lineterm="")
        print("\n".join(diff))
        print("README.md's results tables are stale: run scripts/results_table.py --write", file=sys.stderr)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
