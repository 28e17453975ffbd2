#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what the tests need (scripts/setup.sh), then
# `cargo test --workspace`. Extra arguments go to cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo test --workspace "$@"
