#!/usr/bin/env python3
"""Check scripts/oxo_onnx.py against `oxo gtp`, move by move, in random games.

    python3 scripts/check_oxo_onnx_rules.py OXO [--games N] [--seed S] [--planes]
                                            [--models ROOT] [VARIANT ...]

Plays N random games per variant through the Python port and, in the same order, through
`OXO gtp --variant V`. After every move it compares the legal moves (as text), the player to
move, the result and the score; each turn it also tries one illegal or malformed move and
compares the refusal messages, and some moves are typed in lower case or with a colour.

With `--planes` it also compares `nn_input` with the port's encoding, exactly (as float32).
With `--models ROOT` (ROOT/VARIANT/ holding model.bpk, model.onnx, model.json, as `oxo export`
writes) it runs the engine with that network and compares `nn_eval` with the port's answer from
model.onnx (policy, wdl and value within 1e-4). Exits non-zero on a disagreement, printing the
moves that led to it.
"""

import argparse
import copy
import json
import os
import random
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oxo_onnx import VARIANTS, IllegalMove, Model  # noqa: E402

GARBAGE = ["Z9", "A0", "A100", "pass", "#A1", "#a7", "a", "Q17", "A01", "1A", "é1"]
TOLERANCE = 1e-4


def state_queries(game):
    """The (command, expected answer) pairs describing a position."""
    to_move = "none" if game.outcome else "xo"[game.to_move]
    scores = game.scores()
    return [
        ("legal_moves", "= " + " ".join(game.format_action(a) for a in game.legal_moves())),
        ("to_move", "= " + to_move),
        ("result", "= " + (game.outcome or "none")),
        ("score", "= %d %d" % tuple(scores) if scores is not None else "? no score"),
    ]


def refusal(game, text):
    """oxo's answer to `play text` if the port refuses the move, else None."""
    try:
        copy.deepcopy(game).play(game.parse_action(text))
    except IllegalMove as error:
        return "? " + str(error)
    return None


def script_game(cls, rng, planes, net):
    """A random game: its commands with expected answers, its moves, its positions, its result.

    An expected answer is a string, or ("planes", i) / ("eval", i) for position i."""
    game = cls()
    script, moves, positions = [("clear_board", "= ")], [], []

    def describe():
        script.extend(state_queries(game))
        positions.append(copy.deepcopy(game))
        if planes:
            script.append(("nn_input", ("planes", len(positions) - 1)))
        if net:
            script.append(("nn_eval", ("eval", len(positions) - 1)))

    describe()
    while True:
        legal = game.legal_moves()
        if rng.random() < 0.8:
            illegal = [a for a in range(cls.NUM_ACTIONS) if a not in legal]
            text = cls.format_action(rng.choice(illegal)) if illegal else None
        else:
            text = rng.choice(GARBAGE)
        expected = refusal(game, text) if text else None
        if expected is not None:
            script.append(("play " + text, expected))
        if not legal:
            return script, moves, positions, game.outcome
        action = rng.choice(legal)
        text = cls.format_action(action)
        if rng.random() < 0.2:
            text = text.lower()
        if rng.random() < 0.2:
            script.append((f"play {'xo'[game.to_move]} {text}", "= "))
        else:
            script.append((f"play {text}", "= "))
        game.play(action)
        moves.append(text)
        describe()


def compare_planes(got, game):
    """None if oxo's nn_input answer equals the port's encoding, else what differs."""
    theirs = np.array(json.loads(got[2:]), dtype=np.float32)
    ours = game.encode().ravel()
    if theirs.shape != ours.shape:
        return f"{theirs.size} floats from oxo, {ours.size} from the port"
    cells = game.WIDTH * game.HEIGHT
    bad = np.nonzero(theirs != ours)[0]
    if bad.size:
        i = bad[0]
        return (f"{bad.size} floats differ; first: plane {i // cells} cell {i % cells}: "
                f"oxo {theirs[i]!r}, port {ours[i]!r}")
    return None


def eval_difference(got, ours):
    """The largest difference between oxo's nn_eval answer and the port's, or a reason."""
    theirs = json.loads(got[2:])
    if set(theirs["policy"]) != set(ours["policy"]):
        return "policy keys differ"
    diffs = [abs(theirs["value"] - ours["value"])]
    diffs += [abs(a - b) for a, b in zip(theirs["wdl"], ours["wdl"])]
    diffs += [abs(theirs["policy"][k] - p) for k, p in ours["policy"].items()]
    return max(diffs)


def check_variant(binary, name, games, seed, planes, models):
    cls = VARIANTS[name]
    rng = random.Random(seed)
    command = [binary, "gtp", "--variant", name]
    model = None
    if models:
        model = Model(os.path.join(models, name))
        command += ["--agent", f"net:path={os.path.join(models, name, 'model.bpk')},sims=1"]
    else:
        command += ["--agent", "random"]  # rules and planes only: no network needed
    scripts = [script_game(cls, rng, planes, model is not None) for _ in range(games)]
    commands = "".join(cmd + "\n" for script, *_ in scripts for cmd, _ in script) + "quit\n"
    out = subprocess.run(command, input=commands, capture_output=True, text=True,
                         check=True).stdout
    answers = [a.rstrip("\n") for a in out.split("\n\n")]
    at, compared, worst, planes_checked = 0, 0, 0.0, 0
    for number, (script, moves, positions, _) in enumerate(scripts):
        evals = model.evaluate(positions) if model else None
        played = 0
        for cmd, expected in script:
            got = answers[at].rstrip()
            at += 1
            problem = None
            if isinstance(expected, tuple):
                kind, i = expected
                if not got.startswith("= "):
                    problem = f"oxo refused: {got}"
                elif kind == "planes":
                    problem = compare_planes(got, positions[i])
                    planes_checked += 1
                else:
                    diff = eval_difference(got, evals[i])
                    if isinstance(diff, str) or diff > TOLERANCE:
                        problem = f"nn_eval differs by {diff}: port {json.dumps(evals[i])}"
                    else:
                        worst = max(worst, diff)
            elif got != expected.rstrip():
                problem = f"python {expected!r}"
            if problem:
                print(f"{name} game {number}: after moves {' '.join(moves[:played])}\n"
                      f"  command  {cmd!r}\n  oxo      {got[:300]!r}\n  {problem}")
                return False
            compared += 1
            if cmd.startswith("play") and expected == "= ":
                played += 1
    plies = sum(len(moves) for _, moves, *_ in scripts)
    results = {r: sum(1 for *_, o in scripts if o == r) for r in ("x", "o", "draw")}
    extra = f", {planes_checked} encodings equal" if planes else ""
    extra += f", nn_eval within {worst:.1e}" if model else ""
    print(f"{name}: {games} games {results}, {plies} moves, {compared} answers agree{extra}")
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the oxo executable")
    parser.add_argument("variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--planes", action="store_true", help="also compare nn_input")
    parser.add_argument("--models", metavar="ROOT", help="also compare nn_eval with ROOT/VARIANT")
    args = parser.parse_intermixed_args()
    ok = all([check_variant(args.binary, v, args.games, args.seed, args.planes, args.models)
              for v in args.variants])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
