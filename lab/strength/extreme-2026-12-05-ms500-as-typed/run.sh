#!/usr/bin/env bash
# `net:ms=500` as typed against alphabeta:ms=500 and uct:ms=500 in extreme (../ms500-as-typed.sh).
# Run from the repository root:
#   lab/strength/extreme-2026-12-05-ms500-as-typed/run.sh OXO [MATCHES] [GAMES] [FIRST_SEED]
set -euo pipefail
exec lab/strength/ms500-as-typed.sh extreme lab/strength/extreme-2026-12-05-ms500-as-typed \
  "${1:-target/release/oxo}" "${2:-5}" "${3:-20}" "${4:-1}"
