#!/usr/bin/env python3
"""Counts the openings of a run's self-play games: how many games, how many distinct first
two moves, the commonest, and the first moves. Reads every `games/gen-*/*.bin` of RUN
(crates/train/src/records.rs: "oxo-games-1\\n", a CRC-32, then bincode 2's standard encoding
of GenerationRecords; the CRC is not checked here). Cells are indices, row * 7 + column
(38 is D6, the bottom of the centre column).

    python3 openings.py RUN
"""
import collections
import glob
import struct
import sys

HEADER = len(b"oxo-games-1\n") + 4


class Reader:
    def __init__(self, data: bytes):
        self.data, self.at = data, HEADER

    def byte(self) -> int:
        self.at += 1
        return self.data[self.at - 1]

    def varint(self) -> int:
        first = self.byte()
        if first < 251:
            return first
        size, form = {251: (2, "<H"), 252: (4, "<I"), 253: (8, "<Q")}[first]
        self.at += size
        return struct.unpack_from(form, self.data, self.at - size)[0]

    def skip_f32(self):
        self.at += 4


def games(path: str):
    """The actions of each game in one batch file."""
    r = Reader(open(path, "rb").read())
    name_length = r.varint()
    r.at += name_length  # the variant's name
    r.varint(), r.varint()  # generation, model
    for _ in range(r.varint()):
        actions = [r.varint() for _ in range(r.varint())]
        for _ in range(r.varint()):  # targets
            r.byte()  # full
            for _ in range(r.varint()):
                r.varint(), r.skip_f32()
            r.skip_f32()  # value
        if r.byte():  # winner
            r.byte()
        if r.byte():  # scores
            r.varint(), r.varint()
        yield actions


def main():
    openings = collections.Counter()
    for path in glob.glob(sys.argv[1] + "/games/*/*.bin"):
        for actions in games(path):
            openings[tuple(actions[:2])] += 1
    first = collections.Counter()
    for opening, count in openings.items():
        first[opening[0]] += count
    print(f"{sum(openings.values())} games, {len(openings)} distinct first two moves;"
          f" commonest: {openings.most_common(6)}; first moves: {sorted(first.items())}")


main()
