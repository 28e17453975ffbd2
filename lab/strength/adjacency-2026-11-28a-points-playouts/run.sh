#!/bin/bash
# adjacency, 2026-11-28: playouts that grab points (PlayoutPolicy::Points, `playout=points`:
# three times in four the move that adds most to the mover's lead at once, else a random
# one; the change was not merged and is described in docs/experiments.md, "xando and
# adjacency", item "Playouts that grab points") at the default search, against alphabeta:ms=100 on the first 40 openings of the
# shipped model's 100 games (32-3-5 there with uniform playouts:
# ../adjacency-2026-11-27-default-playouts075-vs-alphabeta-ms100-60games.json), one core per
# match. OXO: a release build of 34cd74f with that change (commit 4982e90); from the
# repository root, ORT_DYLIB_PATH set.
set -eu
out=$(dirname "$0")
taskset -c 0 "$OXO" arena --variant adjacency --games 40 --threads 1 --out "$out/points16-vs-ab100-40" \
  --agents "alphabeta:ms=100,net:search=puct,ms=400,score=1,rollouts=16,mix=0.75,playout=points" &
taskset -c 1 "$OXO" arena --variant adjacency --games 40 --threads 1 --out "$out/points8-vs-ab100-40" \
  --agents "alphabeta:ms=100,net:search=puct,ms=400,score=1,rollouts=8,mix=0.75,playout=points" &
wait
# The offline probe (playout-probe.txt): playout_probe.rs, a Cargo project with
# playout_probe.Cargo.toml as its manifest, run on every adjacency game recorded in
# lab/strength/ (1,242 games): for positions at 6 plies, the mean squared error of 16
# playouts' mean outcome against the recorded game's result, by the share of greedy moves.
