#!/usr/bin/env bash
# Coverage-guided fuzzing of every oxo parser and file reader with libFuzzer (cargo-fuzz, on
# the nightly toolchain, with AddressSanitizer). Usage:
#   scripts/fuzz.sh [RUNS] [TARGET...]
# RUNS inputs per target (default 1000000); targets default to all of them (fuzz/README.md).
# Each target starts from its seeds (fuzz/seeds/TARGET, read only) and grows its own corpus in
# fuzz/corpus/TARGET (not in git); a crash stops with the input in fuzz/artifacts/TARGET: copy
# it to fuzz/regressions/TARGET so that `cargo test -p oxo-fuzz` replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
runs="${1:-1000000}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(notation agent_spec config gtp records model)
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz from crates.io" >&2
  cargo install cargo-fuzz --locked
fi
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  echo "fuzz: $target, $runs inputs" >&2
  start=$(date +%s)
  log="corpus/$target.log"
  # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: 2 GB is a leak or a blow-up.
  status=0
  cargo +nightly fuzz run -O "$target" "corpus/$target" "seeds/$target" -- \
    -runs="$runs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1 || status=$?
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs|==[0-9]+==ERROR|SUMMARY)" "$log" || tail -20 "$log"
  echo "fuzz: $target: exit $status after $(( $(date +%s) - start )) s" >&2
  [ "$status" -eq 0 ] || exit "$status"
done
