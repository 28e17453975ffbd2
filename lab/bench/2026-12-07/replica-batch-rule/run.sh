#!/bin/sh
# Two-thread training before and after each replica got a full batch (and AdamW's update
# was shared out over the trainer's threads), on the shipped ultimate and extreme nets,
# nothing else running. Each round runs, for each variant, in separate processes:
#   OLD --threads 1,2 --batch 128   one thread at 128, two splitting 128 (the old rule)
#   NEW --threads 1,2 --batch 128   one thread at 128, two at 128 each (256 a step)
#   OLD --threads 1,2 --batch 256   one thread at 256, two splitting 256: the same two-thread
#                                   step as NEW's, with the update on one thread
# and appends each process's JSON report, labelled, to OUT/rounds.jsonl.
# Usage (from the repository root): run.sh OLD NEW ROUNDS OUT
set -eu
OLD=$1 NEW=$2 ROUNDS=$3 OUT=$4
mkdir -p "$OUT"
for round in $(seq "$ROUNDS"); do
  for variant in ultimate extreme; do
    for run in "old 128 $OLD" "new 128 $NEW" "old 256 $OLD"; do
      set -- $run
      report=$($3 bench train --variant "$variant" --model "models/$variant/model.bpk" \
        --threads 1,2 --batch "$2" --seconds 3 --rounds 2 --json)
      echo "{\"round\": $round, \"build\": \"$1\", \"batch\": $2, \"bench\": $report}" \
        >> "$OUT/rounds.jsonl"
    done
  done
done
