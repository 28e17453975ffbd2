#!/usr/bin/env bash
# Builds the browser page (web/) into web/dist, and serves or tests it. Usage:
#   scripts/web.sh build          # web/dist: the page, oxo-web as WebAssembly, onnxruntime-web, models/
#   scripts/web.sh serve [PORT]   # build, then serve web/dist on http://127.0.0.1:PORT (default 8000)
#   scripts/web.sh test           # build, then play every variant in headless Chromium (web/test/browser.mjs)
# Needs the wasm32-unknown-unknown target (rustup), wasm-bindgen-cli of the version Cargo.lock
# pins (installed from crates.io when missing), Node.js with npm, and for `test` Chromium
# (Debian's chromium package; installed with apt when missing) and a release `oxo` to compare
# with. Everything comes from the package registries; the page fetches nothing from elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
command="${1:-build}"
target_dir="${CARGO_TARGET_DIR:-target}"
dist=web/dist

bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)

build() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]; then
    echo "web: installing wasm-bindgen-cli $bindgen_version from crates.io" >&2
    # --locked where the registry still has every pinned dependency (a yanked one fails it).
    cargo install wasm-bindgen-cli --version "$bindgen_version" --locked \
      || cargo install wasm-bindgen-cli --version "$bindgen_version"
  fi
  cargo build -p oxo-web --release --target wasm32-unknown-unknown
  rm -rf "$dist"
  mkdir -p "$dist/ort" "$dist/models"
  wasm-bindgen --target web --no-typescript --out-dir "$dist/pkg" \
    "$target_dir/wasm32-unknown-unknown/release/oxo_web.wasm"
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
  cp web/node_modules/onnxruntime-web/dist/ort.wasm.bundle.min.mjs \
    web/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm "$dist/ort/"
  cp web/index.html web/app.js web/style.css "$dist/"
  for model in models/*/; do
    variant=$(basename "$model")
    mkdir -p "$dist/models/$variant"
    cp "$model/model.onnx" "$model/model.json" "$dist/models/$variant/"
  done
  echo "web: built $dist" >&2
}

case "$command" in
  build) build ;;
  serve)
    build
    port="${2:-8000}"
    echo "web: serving http://127.0.0.1:$port/ (Ctrl-C stops)" >&2
    exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dist"
    ;;
  test)
    build
    if ! command -v chromium >/dev/null 2>&1; then
      echo "web: installing chromium" >&2
      sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
      $sudo apt-get install -y chromium >/dev/null || ($sudo apt-get update >/dev/null && $sudo apt-get install -y chromium >/dev/null)
    fi
    cargo build --release -p oxo-cli
    OXO_BIN="$target_dir/release/oxo" node web/test/browser.mjs
    ;;
  *) echo "usage: scripts/web.sh build|serve [PORT]|test" >&2; exit 2 ;;
esac
