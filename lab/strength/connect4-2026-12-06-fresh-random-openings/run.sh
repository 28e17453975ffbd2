#!/bin/sh
# connect4 from scratch with random openings from the first generation: configs/connect4.toml
# with half the self-play games opening with 1 or 2 random moves (config.toml here), on this
# 2-core machine for MINUTES minutes. Run it again on the same RUN to go on: the run resumes
# from its last checkpoint, and its model.json counts the CPU time of every part.
# Usage: run.sh OXO MINUTES RUN
set -eu
OXO=$1
MINUTES=$2
RUN=$3
"$OXO" train --variant connect4 --config "$(dirname "$0")/config.toml" --run "$RUN" --minutes "$MINUTES"
