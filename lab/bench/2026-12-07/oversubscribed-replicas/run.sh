#!/bin/sh
# On a 2-core machine, 2 to 16 training replicas in one process (each on a full batch of the
# config's 128, as `oxo train`'s trainer runs them), so that 16 replicas' autodiff graphs live
# at once as on a 16-core machine, and what share of the cycles goes to burn-autodiff's
# process-wide graph registry at 16 (perf, self time by symbol). Writes
# OUT/bench-VARIANT.json (`oxo bench train --json`) and OUT/perf-VARIANT-16.txt (the
# registry's functions and the ten largest by self time). Nothing else should run meanwhile.
# Usage: run.sh OXO OUT
set -eu
OXO=$1
OUT=$2
mkdir -p "$OUT"
for v in ultimate extreme; do
  "$OXO" bench train --variant "$v" --model "models/$v/model.bpk" --threads 2,4,8,16 \
    --seconds 4 --rounds 3 --json > "$OUT/bench-$v.json"
  perf record -q -F 999 -o "$OUT/perf-$v.data" "$OXO" bench train --variant "$v" \
    --model "models/$v/model.bpk" --threads 16 --seconds 8 --rounds 1 > /dev/null 2>&1
  report=$(perf report -q -i "$OUT/perf-$v.data" --no-children --sort symbol 2>/dev/null)
  {
    echo "# ten largest by self time"
    echo "$report" | head -10
    echo "# burn-autodiff's runtime (the graph registry), B-tree maps and parking_lot's locks"
    echo "$report" | grep -E 'burn_autodiff::runtime|btree|parking_lot' || echo "(none sampled)"
  } > "$OUT/perf-$v-16.txt"
  rm "$OUT/perf-$v.data"
done
