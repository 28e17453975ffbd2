#!/bin/bash
# ultimate, 2026-12-07: can training on make ultimate's default agent stronger against
# uct:ms=2000 (the shipped model: 42-34-4, 73.8% in 80 games, 2026-12-03, most draws as O)?
# The shipped recipe continued from the shipped model's weights, every role at once on both
# cores, with half the self-play games opening with 1 or 2 random moves (config.toml: the one
# change), which kept adjacency's O where its continuation from the empty board lost it
# (lab/strength/adjacency-2026-12-06-random-openings-leg/). Then its best net at the default
# setting against uct:ms=2000 on the openings of that record (--seed 1 and 2, 40 games each),
# one match a core at once. Run from the repository root with OXO a release build:
#   OXO=target/release/oxo lab/strength/ultimate-2026-12-07-random-openings-leg/run.sh train RUN MINUTES
#   OXO=... run.sh export RUN GEN OUT   # RUN/models/GEN.bpk to OUT/GEN with the shipped
#                                       # model's play settings; checksums in models.sha256
#   OXO=... run.sh match OUT GEN        # OUT/GEN's default against uct:ms=2000, seeds 1 and 2
#   OXO=... run.sh rows OUT GEN         # OUT/GEN where the shipped model has its other records:
#                                       # the default against alphabeta:ms=100 (100 games, the
#                                       # arena's default seed) and net:ms=500 against uct:ms=500
#                                       # (--seed 1 and 2, 20 games each), one core each
#   run.sh tally GEN...                 # summary.json: each GEN beside the shipped model's records
set -eu
here=$(dirname "$0")
case ${1-} in
train)
  "$OXO" train --variant ultimate --config "$here/config.toml" --run "$2" \
    --init models/ultimate/model.bpk --minutes "$3" ;;
export)
  run=$2 gen=$3 out=$4
  "$OXO" export --model "$run/models/$gen.bpk" --out "$out/$gen" \
    --search search=puct,ms=400 --value rollouts=16,mix=0.5
  sha256sum "$out/$gen/model.bpk" >> "$here/models.sha256" ;;
match)
  out=$2 gen=$3
  for seed in 1 2; do
    echo "$gen-uct2000-seed$seed-40 net:path=$out/$gen/model.bpk,uct:ms=2000 40 $seed"
  done | scripts/arena_queue.sh ultimate "$here" 0,1 ;;
rows)
  out=$2 gen=$3
  {
    echo "$gen-ab100-100 net:path=$out/$gen/model.bpk,alphabeta:ms=100 100 1"
    for seed in 1 2; do
      echo "$gen-ms500-uct500-seed$seed-20 net:path=$out/$gen/model.bpk,ms=500,uct:ms=500 20 $seed"
    done
  } | scripts/arena_queue.sh ultimate "$here" 0,1 ;;
tally)
  shift
  shipped=lab/strength/ultimate-2026-12-03-default-vs-2000ms
  ab100=lab/strength/shipped-rerun-2026-12-03/ultimate-default-vs-alphabeta-ms100-100games.json
  uct500=lab/strength/ultimate-2026-12-05-ms500-as-typed/net-ms500-vs-uct-ms500-20games-seed
  pairs=(shipped-uct2000 "$shipped/default-vs-uct-ms2000-40games*.json")
  pairs+=(shipped-ab100 "$ab100" shipped-uct500-seed1-2 "${uct500}[12].json")
  for gen in "$@"; do
    pairs+=("$gen-uct2000" "$here/$gen-uct2000-seed[12]-40.json" "$gen-ab100" "$here/$gen-ab100-100.json")
    pairs+=("$gen-uct500-seed1-2" "$here/$gen-ms500-uct500-seed[12]-20.json")
  done
  python3 scripts/arena_tally.py --summary "$here/summary.json" "${pairs[@]}" ;;
*)
  echo "usage: $0 train RUN MINUTES | export RUN GEN OUT | match OUT GEN | rows OUT GEN | tally GEN..." >&2
  exit 2 ;;
esac
