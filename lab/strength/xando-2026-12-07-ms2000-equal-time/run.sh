#!/bin/bash
# xando, 2026-12-07: does the learned agent's lead over uct at equal time hold at 2 s a
# move? The shipped model as typed (`net:ms=2000`: every other setting from its model.json)
# against `uct:ms=2000`, 10 paired games on the openings of --seed 1, those of the default
# agent's record against the same opponent (../xando-2026-12-05-default-vs-uct-2000ms/
# default-vs-uct-ms2000-20games-seed1.json, its first 10 games), the net first as there;
# one core.
# Run from the repository root with OXO a release build:
#   OXO=... run.sh match [CORE]   # the match, on core CORE (default 0)
#   run.sh tally                  # summary.txt, summary.json: beside the default's record
set -eu
here=$(dirname "$0")
case ${1-} in
match)
  echo "ms2000-uct2000-seed1-10 net:ms=2000,uct:ms=2000 10 1" |
    scripts/arena_queue.sh xando "$here" "${2-0}" ;;
tally)
  python3 scripts/arena_tally.py --summary "$here/summary.json" --pair default ms2000 \
    default lab/strength/xando-2026-12-05-default-vs-uct-2000ms/default-vs-uct-ms2000-20games-seed1.json \
    ms2000 "$here/ms2000-uct2000-seed1-10.json" | tee "$here/summary.txt" ;;
*)
  echo "usage: $0 match [CORE] | tally" >&2
  exit 2 ;;
esac
