"""Talking to `oxo gtp` from the scripts: one command, one answer."""

import subprocess
import sys


def ask(engine: subprocess.Popen, command: str) -> str:
    """Sends one command and returns its answer's text (without `= `); exits on a `?`."""
    engine.stdin.write(command + "\n")
    engine.stdin.flush()
    lines = []
    while (line := engine.stdout.readline()) not in ("\n", ""):
        lines.append(line.rstrip("\n"))
    if not lines or not lines[0].startswith("="):
        sys.exit(f"{command!r} was answered {lines!r}")
    return "\n".join(lines)[1:].strip()
