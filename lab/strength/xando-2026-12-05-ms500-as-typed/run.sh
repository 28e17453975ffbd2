#!/usr/bin/env bash
# `net:ms=500` as typed against alphabeta:ms=500 and uct:ms=500 in xando (../ms500-as-typed.sh).
# Run from the repository root:
#   lab/strength/xando-2026-12-05-ms500-as-typed/run.sh OXO [MATCHES] [GAMES] [FIRST_SEED]
set -euo pipefail
exec lab/strength/ms500-as-typed.sh xando lab/strength/xando-2026-12-05-ms500-as-typed \
  "${1:-target/release/oxo}" "${2:-2}" "${3:-50}" "${4:-1}"
