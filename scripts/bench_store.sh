#!/usr/bin/env bash
# Self-play games per hour through the run store (`oxo train --role selfplay`), each worker
# process on one thread and one core:
#   local   one worker, the run in a local directory
#   s3      one worker, the run on an S3 server (s3s-fs on 127.0.0.1)
#   s3 x2   two workers at once on the S3 server, each on its own core
# Each starts a fresh run (its first net made by `--role trainer`), runs the workers for
# SECONDS, and counts the games they uploaded over their wall-clock time (startup, model
# fetch and uploads included).
# Usage: scripts/bench_store.sh [VARIANT] [SECONDS]   (default: ultimate 240)
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-ultimate}
seconds=${2:-240}
oxo=${OXO_BIN:-target/release/oxo}
s3s=$(command -v s3s-fs || echo "${CARGO_HOME:-$HOME/.cargo}/bin/s3s-fs")
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/s3/bench"
"$s3s" --host 127.0.0.1 --port "$port" --access-key bench --secret-key bench "$work/s3" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
export AWS_ENDPOINT="http://127.0.0.1:$port" AWS_ALLOW_HTTP=true AWS_REGION=us-east-1
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench RUST_LOG=warn
sleep 1
minutes=$(python3 -c "print($seconds / 60)")

# bench NAME URL CORES...: one worker per core; prints games, wall seconds, games per hour.
bench() {
  local name=$1 url=$2
  shift 2
  "$oxo" train --variant "$variant" --run "$url" --role trainer --minutes 0.001 >/dev/null
  local start end pids=()
  start=$(date +%s.%N)
  for core in "$@"; do
    taskset -c "$core" "$oxo" train --variant "$variant" --run "$url" --role selfplay \
      --threads 1 --minutes "$minutes" --cache "$work/cache-$name-$core" >/dev/null &
    pids+=($!)
  done
  wait "${pids[@]}"
  end=$(date +%s.%N)
  local games
  games=$("$oxo" status --run "$url" | sed -n 's/^all workers: \([0-9]*\) games.*/\1/p')
  python3 -c "
g, s = $games, $end - $start
print(f'{\"$name\":<8} workers {len(\"$*\".split())}  games {g:5d}  wall {s:6.1f} s  games/h {g * 3600 / s:8.0f}')"
}

echo "oxo bench: store, $variant, $seconds s per case, $(nproc) cores"
bench local "$work/local" 0
bench s3 "s3://bench/one" 0
bench s3x2 "s3://bench/two" 0 1
