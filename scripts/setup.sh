#!/usr/bin/env bash
# Installs what oxo and its tests use beyond Rust, where it is missing: onnxruntime and numpy
# from PyPI (oxo's fast inference engine loads the wheel's libonnxruntime; the export tests run
# exported models in it), tmux (the terminal test of `oxo play` drives a real pane), iproute2
# (the store test's network namespaces) and the S3 server s3s-fs from crates.io (the
# store-run test runs its processes through it). Safe to run again: it installs only what is
# missing. Downloads come from the package registries alone (PyPI, Debian, crates.io).
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found: install Rust (https://rustup.rs) first" >&2
  exit 1
fi

if ! python3 -c "import numpy, onnxruntime" >/dev/null 2>&1; then
  echo "setup: installing numpy and onnxruntime from PyPI" >&2
  python3 -m pip install --quiet numpy onnxruntime
fi

# Installs Debian package $2 unless command $1 is there.
install_debian() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "setup: installing $2" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    ($sudo apt-get install -y "$2" || ($sudo apt-get update && $sudo apt-get install -y "$2")) >/dev/null
  fi
}
install_debian tmux tmux
# `ip`: the store test's network namespaces (a worker on a link that is cut).
install_debian ip iproute2

if ! command -v s3s-fs >/dev/null 2>&1 && [ ! -x "${CARGO_HOME:-$HOME/.cargo}/bin/s3s-fs" ]; then
  echo "setup: installing s3s-fs 0.14.1 (an S3 server over a directory, for the store tests)" >&2
  # 0.14.1: later versions need a newer rustc than oxo's.
  cargo install --quiet s3s-fs --version 0.14.1 --features binary --locked
fi
