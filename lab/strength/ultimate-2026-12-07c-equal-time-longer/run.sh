#!/bin/bash
# ultimate, 2026-12-07: does the learned agent's lead over uct at equal time hold at longer
# time controls? The shipped model as typed (`net:ms=M`: every other setting from its
# model.json, the int8 graph included) against `uct:ms=M` at 2 s a move (20 games) and at
# 5 s (10 games), on the openings of --seed 1, the first of the 0.5 s record's five
# (../ultimate-2026-12-07b-int8-default/int8-ms500-uct500-seed1-20.json: 14-6-0, 85.0%),
# the net first as there; one match a core, both at once. Then `fourx`: `net:ms=2000`
# against `uct:ms=8000`, 4x its time, the first 8 of the same openings, one core.
# Run from the repository root with OXO a release build:
#   OXO=... run.sh match          # the two matches
#   OXO=... run.sh fourx [CORE]   # net:ms=2000 against uct:ms=8000, on core CORE (default 1)
#   run.sh tally                  # summary.txt, summary.json: 0.5, 2 and 5 s, and 4x at
#                                 # 2 s beside 4x at 400 ms (the default's int8 record)
set -eu
here=$(dirname "$0")
case ${1-} in
match)
  printf '%s\n' "ms2000-uct2000-seed1-20 net:ms=2000,uct:ms=2000 20 1" \
    "ms5000-uct5000-seed1-10 net:ms=5000,uct:ms=5000 10 1" |
    scripts/arena_queue.sh ultimate "$here" 0,1 ;;
fourx)
  echo "ms2000-uct8000-seed1-8 net:ms=2000,uct:ms=8000 8 1" |
    scripts/arena_queue.sh ultimate "$here" "${2-1}" ;;
tally)
  python3 scripts/arena_tally.py --summary "$here/summary.json" \
    --pair ms500 ms2000 --pair ms500 ms5000 --pair ms2000 ms2000-uct8000 \
    --pair default-uct2000 ms2000-uct8000 \
    ms500 lab/strength/ultimate-2026-12-07b-int8-default/int8-ms500-uct500-seed1-20.json \
    ms2000 "$here/ms2000-uct2000-seed1-20.json" ms5000 "$here/ms5000-uct5000-seed1-10.json" \
    ms2000-uct8000 "$here/ms2000-uct8000-seed1-8.json" \
    default-uct2000 lab/strength/ultimate-2026-12-07b-int8-default/int8-uct2000-seed1-40.json |
    tee "$here/summary.txt" ;;
*)
  echo "usage: $0 match | fourx [CORE] | tally" >&2
  exit 2 ;;
esac
