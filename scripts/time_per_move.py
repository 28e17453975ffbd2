#!/usr/bin/env python3
"""Measures the time per move of a shipped model: the mean wall-clock time of `genmove`
answers from `oxo gtp --variant V` (the default agent: the shipped model with the search its
model.json records, or the agent `--agent` names), sent one at a time. The engine plays
both sides; a finished game starts over with `clear_board`.

    usage: scripts/time_per_move.py OXO_BINARY VARIANT [--moves N] [--agent SPEC]

Run it with the machine otherwise idle: the figure is wall-clock time.
"""

import argparse
import statistics
import subprocess
import time

from gtp_client import ask


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("oxo", help="the oxo binary")
    parser.add_argument("variant")
    parser.add_argument("--moves", type=int, default=20, help="genmove answers timed (default 20)")
    parser.add_argument("--agent", help="an agent spec instead of the shipped model")
    args = parser.parse_args()
    command = [args.oxo, "gtp", "--variant", args.variant]
    if args.agent:
        command += ["--agent", args.agent]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ask(engine, "name")  # the engine (and its network) is ready
    times = []
    while len(times) < args.moves:
        if ask(engine, "result") != "none":
            ask(engine, "clear_board")
        start = time.perf_counter()
        ask(engine, "genmove")
        times.append(time.perf_counter() - start)
    ask(engine, "quit")
    engine.wait()
    print(
        f"{args.variant}: {statistics.mean(times):.3f} s per move "
        f"(mean of {len(times)} genmove answers; median {statistics.median(times):.3f} s, "
        f"max {max(times):.3f} s)"
    )


if __name__ == "__main__":
    main()
