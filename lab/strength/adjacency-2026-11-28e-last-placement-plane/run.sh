#!/bin/bash
# adjacency, 2026-11-28: a 13th input plane, "the mover makes the last placement" (the empty
# cells other than T squares are odd in number), added to adjacency's encoding; the shipped
# net grown to read it (`oxo grow`: the plane's stem weights start at zero, so the grown net
# answers as the shipped one) and trained on with configs/adjacency.toml (config.toml) on
# 2 cores for 51 minutes (stopped by kill -9 during generation 78's self-play; 77
# generations), then matched. Not shipped, so main's encoding has 12 planes: the 13-plane
# encoder and scripts/oxo_onnx.py's port were not merged and are described in
# docs/experiments.md, "xando and adjacency", item "An input plane for who makes the last
# placement" (commit ef79a3d). From the repository root, OXO a release build with that
# encoder, ORT_DYLIB_PATH set:
#   OXO=target/release/oxo lab/strength/adjacency-2026-11-28e-last-placement-plane/run.sh RUN OUT
# The probe (last_placement_probe.py) ran first, on the 12-plane shipped model and port
# (commit 83f29cd): probe-shipped-12planes.txt; then on generation 18 of this run:
# probe-gen18.txt. The result files name the nets by /work/runs/adj-parity/models/best.bpk
# (generation 77) and /work/exp/s25/parity/shipped-13planes.bpk (the shipped net grown to
# 13 planes, which plays as the shipped model: both sha256 in models.sha256).
set -eu
here=$(dirname "$0"); run=$1; out=$2; mkdir -p "$out"
"$OXO" grow --out "$out/shipped-13planes.bpk" models/adjacency/model.bpk
"$OXO" train --variant adjacency --config "$here/config.toml" --run "$run" \
  --init "$out/shipped-13planes.bpk" --minutes 70
# At the default search (400 ms a move), one match per core, at once, nothing else running:
# the first 40 openings against alphabeta:ms=100 (where the shipped model went 32-3-5), and
# 20 paired games against the shipped model (as its 13-plane copy). Then at a fixed budget
# (1,000 PUCT simulations a move, so the results do not depend on the machine's load), one
# match per core: against alphabeta:depth=3 on the openings of
# lab/strength/adjacency-2026-11-27b-sims1000-value-screens/base-seed*-20.json, then 10
# paired games against the shipped model on each of two seeds. Then the tally
# (lab/screen.sh's stages, in this order).
"$here/../../screen.sh" "net:path=$run/models/best.bpk" "net:path=$out/shipped-13planes.bpk" \
  "$out" timed depth3 h2h1000 tally
