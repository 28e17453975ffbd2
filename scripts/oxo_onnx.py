#!/usr/bin/env python3
"""Evaluate a position with a model exported by `oxo export`, without oxo.

    python3 scripts/oxo_onnx.py DIR [MOVE ...]        one position, one JSON line
    python3 scripts/oxo_onnx.py DIR --batch FILE      one position per line, one onnxruntime call
    python3 scripts/oxo_onnx.py DIR --planes [MOVE ...]   the encoded input, plane-major

DIR holds `model.onnx` and `model.json` (written by `oxo export`). The program replays the moves
with its own port of the variant's rules (crates/variants/src/VARIANT/mod.rs), encodes the position
exactly as oxo's Rust encoder does (crates/nn/src/encode/VARIANT.rs), runs the network and
prints `{"value": v, "wdl": [win, draw, loss], "policy": {"MOVE": p, ...}}` for the player to
move: `wdl` is the softmax of `wdl_logits`, `value = win - loss`, and `policy` is the softmax of
the policy logits over the legal moves only, in action-index order (empty once the game is
over), plus `"score"` (the predicted score margin) for nets with a score head: the same
answer as `oxo gtp`'s `nn_eval` for that position.

Dependencies: numpy and onnxruntime. Move notation follows RULES.md: cells `A1` (column letter,
row number from the top, case-insensitive), `pass` (paytoplay), `#C3` (xando's blackening).

Conventions shared by every encoder (crates/nn/src/encode/mod.rs): planes are `[plane][row][col]`
with cell index `row * WIDTH + col`, from the point of view of the player to move ("mover" and
"opponent"), scalars are constant planes divided in float32 by the scales oxo uses, and the
last plane is all ones.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

X, O = 0, 1  # player indices: X moves first


class IllegalMove(Exception):
    """A move that cannot be played (or parsed); the message says why, in oxo's words."""


def cell_name(cell: int, width: int) -> str:
    """The name of a cell, `C5` style (`coords::format_cell`)."""
    return f"{chr(ord('A') + cell % width)}{cell // width + 1}"


def parse_cell(text: str, width: int, height: int) -> int | None:
    """A cell name read as `coords::parse_cell` does (case-insensitive, 1 or 2 digits), or None."""
    text = text.strip()
    if len(text) < 2 or not ("A" <= text[0] <= "Z" or "a" <= text[0] <= "z"):
        return None
    digits = text[1:]
    if len(digits) > 2 or not all("0" <= d <= "9" for d in digits):
        return None
    col, row = ord(text[0].upper()) - ord("A"), int(digits)
    if col >= width or row == 0 or row > height:
        return None
    return (row - 1) * width + col


def scaled(value: int, scale: float) -> np.float32:
    """`value as f32 / scale` computed in float32, as the Rust encoders do."""
    return np.float32(np.float32(value) / np.float32(scale))


class Game:
    """What every variant provides; subclasses fill in the rules and the encoder.

    `to_move` is the index of the player to act (meaningful also once the game is over, where
    the encoders still read it), `outcome` is None while playing, else "x", "o" or "draw".
    """

    NAME = ""
    WIDTH = HEIGHT = NUM_ACTIONS = PLANES = 0

    def __init__(self):
        self.to_move = X  # XAndO derives it instead
        self.outcome: str | None = None

    # --- notation -------------------------------------------------------------------------
    @classmethod
    def format_action(cls, action: int) -> str:
        return cell_name(action, cls.WIDTH)

    @classmethod
    def parse_action(cls, text: str) -> int:
        cell = parse_cell(text, cls.WIDTH, cls.HEIGHT)
        if cell is None:
            last = cell_name(cls.WIDTH * cls.HEIGHT - 1, cls.WIDTH)
            raise IllegalMove(f"'{text}' is not a move: expected a cell A1..{last}")
        return cell

    # --- rules ----------------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """Every legal action index, increasing; empty exactly when the game is over."""
        raise NotImplementedError

    def check(self, action: int) -> str | None:
        """Why `action` is illegal (oxo's `IllegalMove` text), or None if it is legal."""
        raise NotImplementedError

    def apply(self, action: int) -> None:
        """Plays a legal action."""
        raise NotImplementedError

    def play(self, action: int) -> None:
        """Plays `action`, or raises IllegalMove with oxo's message and changes nothing."""
        why = "no such move in this variant" if not 0 <= action < self.NUM_ACTIONS else None
        why = why or ("the game is over" if self.outcome is not None else self.check(action))
        if why:
            raise IllegalMove(f"illegal move {self.format_action(action)}: {why}")
        self.apply(action)

    def scores(self) -> list[int] | None:
        """Scores or balances [X, O] as `oxo gtp score` shows them, or None."""
        return None

    # --- encoder --------------------------------------------------------------------------
    def encode(self) -> np.ndarray:
        """The network input, float32 `[PLANES, HEIGHT, WIDTH]`."""
        raise NotImplementedError

    def _planes(self) -> np.ndarray:
        """Zeroed planes, flat per plane (`planes[p][cell]`), with the last plane all ones."""
        planes = np.zeros((self.PLANES, self.WIDTH * self.HEIGHT), dtype=np.float32)
        planes[-1, :] = 1.0
        return planes

    def _shaped(self, planes: np.ndarray) -> np.ndarray:
        return planes.reshape(self.PLANES, self.HEIGHT, self.WIDTH)


def set_cells(plane: np.ndarray, cells) -> None:
    """Sets every cell of `cells` on a flat plane to 1."""
    for cell in cells:
        plane[cell] = 1.0


def encode_nested_boards(game, planes, cells: int):
    """Planes 0-7 shared by ultimate and extreme (as their Rust encoders write them): mover's
    and opponent's marks, legal cells, boards won by each, closed boards, the board the mover
    is sent to, and the free-move flag."""
    mover, opponent = game.to_move, game.to_move ^ 1
    set_cells(planes[0], [c for c in range(cells) if game.owner[c] == mover])
    set_cells(planes[1], [c for c in range(cells) if game.owner[c] == opponent])
    set_cells(planes[2], game.legal_moves())
    for plane, boards in ((3, game.won[mover]), (4, game.won[opponent]), (5, game.closed)):
        for b in boards:
            set_cells(planes[plane], game.board_cells(b))
    if game.sent is not None:
        set_cells(planes[6], game.board_cells(game.sent))
    elif game.outcome is None:
        planes[7, :] = 1.0


def encode_rule_planes(game, planes, first: int, patterns, boards: int, cell_at) -> None:
    """The seven rule planes from plane `first` of ultimate and extreme (their Rust
    encoders' "sends to" and "wins board" planes; a board has `boards` cells too): cell `l`
    of every board shows board `l` (closed; won by the mover; by the opponent; winnable by
    the mover in one move; by the opponent), then the empty cells where the mover, or the
    opponent, would win their board."""
    mover, opponent = game.to_move, game.to_move ^ 1
    threats = [set(), set()]
    for b in range(boards):
        if b in game.closed:
            continue
        marks = [{l for l in range(boards) if game.owner[cell_at(b, l)] == p} for p in (mover, opponent)]
        for side in (0, 1):
            mine, theirs = marks[side], marks[1 - side]
            for pattern in patterns:
                open_cells = [l for l in pattern if l not in mine]
                if len(open_cells) == 1 and not theirs & set(pattern):
                    threats[side].add(b)
                    planes[first + 5 + side, cell_at(b, open_cells[0])] = 1.0
    shown = [game.closed, game.won[mover], game.won[opponent], threats[0], threats[1]]
    for k, sent_to in enumerate(shown):
        for local in sent_to:
            set_cells(planes[first + k], [cell_at(b, local) for b in range(boards)])


# ======================================================================================
# tictactoe
# ======================================================================================

LINES3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def has_line3(cells: set[int]) -> bool:
    """Whether a set of 3x3 cells (0..9, row-major) holds three in a row."""
    return any(all(c in cells for c in line) for line in LINES3)


class TicTacToe(Game):
    """Classic 3x3 tic-tac-toe (crates/variants/src/tictactoe/mod.rs).

    Planes (4): mover marks, opponent marks, legal cells (none once over), ones. The mover is
    X when both have placed equally many marks, also once the game is over.
    """

    NAME, WIDTH, HEIGHT, NUM_ACTIONS, PLANES = "tictactoe", 3, 3, 9, 4

    def __init__(self):
        super().__init__()
        self.marks: list[set[int]] = [set(), set()]

    def empty(self) -> list[int]:
        return [c for c in range(9) if c not in self.marks[X] and c not in self.marks[O]]

    def legal_moves(self):
        return [] if self.outcome else self.empty()

    def check(self, action):
        return None if action in self.empty() else "the square is occupied"

    def apply(self, action):
        self.marks[self.to_move].add(action)
        self.to_move ^= 1
        if has_line3(self.marks[X]):
            self.outcome = "x"
        elif has_line3(self.marks[O]):
            self.outcome = "o"
        elif not self.empty():
            self.outcome = "draw"

    def encode(self):
        planes = self._planes()
        mover = self.to_move
        set_cells(planes[0], self.marks[mover])
        set_cells(planes[1], self.marks[mover ^ 1])
        if self.outcome is None:
            set_cells(planes[2], self.empty())
        return self._shaped(planes)


# ======================================================================================
# ultimate
# ======================================================================================


def ult_cell_of(board: int, cell: int) -> int:
    """The flat 9x9 cell of local cell `cell` of local board `board` (both row-major 0..9)."""
    return (board // 3 * 3 + cell // 3) * 9 + board % 3 * 3 + cell % 3


def ult_board_of(index: int) -> int:
    return index // 27 * 3 + index % 9 // 3


def ult_local_of(index: int) -> int:
    return index // 9 % 3 * 3 + index % 3


class Ultimate(Game):
    """Ultimate tic-tac-toe on the flat 9x9 grid (crates/variants/src/ultimate/mod.rs).

    Local cell c sends the opponent to local board c; a closed board (won or full) sends to a
    free move on any open board. Three won boards in a line win at once; all boards closed is a
    draw. The move that ends the game does not pass the turn (the last mover stays `to_move`),
    and a finished game sends nobody anywhere.

    Planes (16): mover marks, opponent marks, legal cells, cells of boards the mover won, of
    boards the opponent won, of closed boards, of the sent-to board, free-move flag (0 once
    over), the seven rule planes (`encode_rule_planes`), ones.
    """

    NAME, WIDTH, HEIGHT, NUM_ACTIONS, PLANES = "ultimate", 9, 9, 81, 16

    def __init__(self):
        super().__init__()
        self.owner: list[int | None] = [None] * 81
        self.won: list[set[int]] = [set(), set()]
        self.closed: set[int] = set()
        self.sent: int | None = None  # None: free move (also once over)

    def board_cells(self, board: int) -> list[int]:
        return [ult_cell_of(board, c) for c in range(9)]

    def local_marks(self, player: int, board: int) -> set[int]:
        return {c for c in range(9) if self.owner[ult_cell_of(board, c)] == player}

    def legal_moves(self):
        if self.outcome:
            return []
        boards = [self.sent] if self.sent is not None else [b for b in range(9) if b not in self.closed]
        return sorted(i for b in boards for i in self.board_cells(b) if self.owner[i] is None)

    def check(self, action):
        board = ult_board_of(action)
        if self.owner[action] is not None:
            return "the square is occupied"
        if self.sent is not None and self.sent != board:
            return "wrong board: play on the board you were sent to"
        if board in self.closed:
            return "that board is closed"
        return None

    def apply(self, action):
        board, cell, mover = ult_board_of(action), ult_local_of(action), self.to_move
        self.owner[action] = mover
        if has_line3(self.local_marks(mover, board)):
            self.closed.add(board)
            self.won[mover].add(board)
            if has_line3(self.won[mover]):
                return self._finish("xo"[mover])
        elif all(self.owner[i] is not None for i in self.board_cells(board)):
            self.closed.add(board)
        if len(self.closed) == 9:
            return self._finish("draw")
        self.sent = None if cell in self.closed else cell
        self.to_move ^= 1

    def _finish(self, outcome: str):
        self.outcome = outcome
        self.sent = None

    def encode(self):
        planes = self._planes()
        encode_nested_boards(self, planes, 81)
        encode_rule_planes(self, planes, 8, LINES3, 9, ult_cell_of)
        return self._shaped(planes)


# ======================================================================================
# extreme
# ======================================================================================

# The 12 patterns of a 4x4 board (local cell = row * 4 + col): rows, columns, diamonds.
PATTERNS4 = (
    [tuple(r * 4 + c for c in range(4)) for r in range(4)]
    + [tuple(r * 4 + c for r in range(4)) for c in range(4)]
    + [
        tuple((r + dr) * 4 + (c + dc) for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)))
        for r, c in ((1, 1), (1, 2), (2, 1), (2, 2))
    ]
)

# Tie-break weight of each small board: corners 6, edges 4, the four centre boards 3.
EXTREME_WEIGHTS = [6, 4, 4, 6, 4, 3, 3, 4, 4, 3, 3, 4, 6, 4, 4, 6]


def has_pattern(cells: set[int]) -> bool:
    """Whether a set of 4x4 positions (0..16) holds a row, a column or a diamond."""
    return any(all(c in cells for c in p) for p in PATTERNS4)


def ext_board_of(cell: int) -> int:
    return (cell >> 6) * 4 + ((cell & 15) >> 2)


def ext_local_of(cell: int) -> int:
    return ((cell >> 4) & 3) * 4 + (cell & 3)


def ext_cell_at(board: int, local: int) -> int:
    return ((board >> 2) * 4 + (local >> 2)) * 16 + (board & 3) * 4 + (local & 3)


class Extreme(Game):
    """Extreme tic-tac-toe: 16 small 4x4 boards on a 16x16 grid (crates/variants/src/extreme/mod.rs).

    Patterns are rows, columns and diamonds. Winning a small board gives a bonus move (not from
    a bonus move), sent by the winning cell; after it the opponent is sent by the bonus cell. A
    big-board pattern wins at once; all boards closed goes to weighted board points (corner 6,
    edge 4, centre 3). A game-ending move does not pass the turn.

    Planes (13): mover marks, opponent marks, legal cells, cells of boards won by the mover, by
    the opponent, closed boards, the sent-to board, free-move flag (0 once over), bonus flag,
    board weight / 6, mover points / 34, opponent points / 34, ones.
    """

    NAME, WIDTH, HEIGHT, NUM_ACTIONS, PLANES = "extreme", 16, 16, 256, 20

    def __init__(self):
        super().__init__()
        self.owner: list[int | None] = [None] * 256
        self.won: list[set[int]] = [set(), set()]
        self.closed: set[int] = set()
        self.sent: int | None = None  # None: open move (also once over)
        self.bonus = False

    def board_cells(self, board: int) -> list[int]:
        return [ext_cell_at(board, local) for local in range(16)]

    def points(self, player: int) -> int:
        return sum(EXTREME_WEIGHTS[b] for b in self.won[player])

    def playable_boards(self) -> list[int]:
        if self.outcome:
            return []
        if self.sent is None:
            return [b for b in range(16) if b not in self.closed]
        return [self.sent]

    def legal_moves(self):
        boards = self.playable_boards()
        return sorted(c for b in boards for c in self.board_cells(b) if self.owner[c] is None)

    def check(self, action):
        board = ext_board_of(action)
        if self.owner[action] is not None:
            return "the square is occupied"
        if self.sent is not None and board != self.sent:
            return "wrong board: play on the board you were sent to"
        if board in self.closed:
            return "that board is closed"
        return None

    def _send_to(self, local: int) -> int | None:
        return None if local in self.closed else local

    def _finish(self, outcome: str):
        self.outcome = outcome
        self.sent = None
        self.bonus = False

    def _finish_on_points(self):
        x, o = self.points(X), self.points(O)
        self._finish("x" if x > o else "o" if o > x else "draw")

    def apply(self, action):
        board, local, p = ext_board_of(action), ext_local_of(action), self.to_move
        self.owner[action] = p
        mine = {l for l in range(16) if self.owner[ext_cell_at(board, l)] == p}
        if has_pattern(mine):
            self.won[p].add(board)
            self.closed.add(board)
            if has_pattern(self.won[p]):
                return self._finish("xo"[p])
            if len(self.closed) == 16:
                return self._finish_on_points()
            if not self.bonus:
                self.bonus = True
                self.sent = self._send_to(local)
                return
        elif all(self.owner[c] is not None for c in self.board_cells(board)):
            self.closed.add(board)
            if len(self.closed) == 16:
                return self._finish_on_points()
        self.bonus = False
        self.to_move ^= 1
        self.sent = self._send_to(local)

    def scores(self):
        return [self.points(X), self.points(O)]

    def encode(self):
        planes = self._planes()
        encode_nested_boards(self, planes, 256)
        mover, opponent = self.to_move, self.to_move ^ 1
        if self.bonus:
            planes[8, :] = 1.0
        for b in range(16):
            for c in self.board_cells(b):
                planes[9, c] = scaled(EXTREME_WEIGHTS[b], 6.0)
        planes[10, :] = scaled(self.points(mover), 34.0)
        planes[11, :] = scaled(self.points(opponent), 34.0)
        encode_rule_planes(self, planes, 12, PATTERNS4, 16, ext_cell_at)
        return self._shaped(planes)


# ======================================================================================
# paytoplay
# ======================================================================================

PAY_PASS = 9
PAY_COSTS = [3, 2, 3, 2, 4, 2, 3, 2, 3]  # corner 3, edge 2, centre 4


class PayToPlay(Game):
    """Tic-tac-toe with a point economy (crates/variants/src/paytoplay/mod.rs). Action 9 is `pass`.

    The mover is credited 1 on the game's first turn and 2 afterwards; with funds > 0 they may
    place (paying the cell's cost) or pass, else they must pass. Two voluntary passes in a row
    end the game; a full board or the passes go to the higher balance; a line wins at once.
    `balances` are those after the last turn (no pending income), as `oxo gtp score` shows.

    Planes (9): mover marks, opponent marks, legal cells (none when passing is forced or once
    over), cell cost / 4, mover funds (balance + pending income) / 8, opponent balance / 8,
    must-pass flag (0 once over), pass-ends flag, ones.
    """

    NAME, WIDTH, HEIGHT, NUM_ACTIONS, PLANES = "paytoplay", 3, 3, 10, 9

    def __init__(self):
        super().__init__()
        self.marks: list[set[int]] = [set(), set()]
        self.balances = [0, 0]
        self.started = False
        self.voluntary_pass = False

    @classmethod
    def format_action(cls, action):
        return "pass" if action == PAY_PASS else cell_name(action, 3)

    @classmethod
    def parse_action(cls, text):
        if text.strip().lower() == "pass":
            return PAY_PASS
        cell = parse_cell(text, 3, 3)
        if cell is None:
            raise IllegalMove(f"'{text}' is not a move: expected a cell A1..C3 or pass")
        return cell

    def empty(self) -> list[int]:
        return [c for c in range(9) if c not in self.marks[X] and c not in self.marks[O]]

    def funds(self) -> int:
        return self.balances[self.to_move] + (2 if self.started else 1)

    def must_pass(self) -> bool:
        return self.funds() <= 0

    def legal_moves(self):
        if self.outcome:
            return []
        return [PAY_PASS] if self.must_pass() else self.empty() + [PAY_PASS]

    def check(self, action):
        if action == PAY_PASS:
            return None
        if self.must_pass():
            return "not enough balance: a balance of 0 or less must pass"
        return None if action in self.empty() else "the square is occupied"

    def _by_balance(self) -> str:
        x, o = self.balances
        return "x" if x > o else "o" if o > x else "draw"

    def apply(self, action):
        me, funds = self.to_move, self.funds()
        if action == PAY_PASS:
            self.balances[me] = funds
            voluntary = funds > 0
            if voluntary and self.voluntary_pass:
                self.outcome = self._by_balance()
            self.voluntary_pass = voluntary
        else:
            self.balances[me] = funds - PAY_COSTS[action]
            self.marks[me].add(action)
            self.voluntary_pass = False
            if has_line3(self.marks[me]):
                self.outcome = "xo"[me]
            elif not self.empty():
                self.outcome = self._by_balance()
        self.started = True
        self.to_move ^= 1

    def scores(self):
        return list(self.balances)

    def encode(self):
        planes = self._planes()
        mover = self.to_move
        set_cells(planes[0], self.marks[mover])
        set_cells(planes[1], self.marks[mover ^ 1])
        if self.outcome is None and not self.must_pass():
            set_cells(planes[2], self.empty())
        for cell in range(9):
            planes[3, cell] = scaled(PAY_COSTS[cell], 4.0)
        planes[4, :] = scaled(self.funds(), 8.0)
        planes[5, :] = scaled(self.balances[mover ^ 1], 8.0)
        if self.outcome is None and self.must_pass():
            planes[6, :] = 1.0
        if self.voluntary_pass:
            planes[7, :] = 1.0
        return self._shaped(planes)


# ======================================================================================
# xando
# ======================================================================================

XO_SIZE, XO_CELLS = 6, 36
XO_BLACKEN = 36  # action 36 + cell blackens the cell, written #C3
XO_RUN_POINTS = [0, 0, 1, -5, 10, -15, 25]  # by run length
XO_DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]  # (drow, dcol)


def xo_score(cells: set[int]) -> int:
    """Points of one player's symbols: every maximal run along a row, column or diagonal."""
    total = 0
    for dr, dc in XO_DIRECTIONS:
        for cell in cells:
            r, c = divmod(cell, XO_SIZE)
            pr, pc = r - dr, c - dc  # a run starts where the previous cell is not ours
            if 0 <= pr < XO_SIZE and 0 <= pc < XO_SIZE and pr * XO_SIZE + pc in cells:
                continue
            length = 0
            while 0 <= r < XO_SIZE and 0 <= c < XO_SIZE and r * XO_SIZE + c in cells:
                length, r, c = length + 1, r + dr, c + dc
            total += XO_RUN_POINTS[length]
    return total


class XAndO(Game):
    """Sackson's X and O, a round of two games on a 6x6 grid (crates/variants/src/xando/mod.rs).

    Game 1 opens with four blackenings (X, O, X, O; only `#cell` is legal), then X and O claim
    squares alternately, X first; game 2 starts from a fresh grid with the opening black squares
    and O first. A player's last turn of a game (two or fewer empty squares) may blacken
    instead of claim. Actions: 0..36 claim, 36 + cell blacken. The mover follows from the
    number of filled squares and the game number (also once over). Scores during play: game
    1's final scores plus the current grid's runs.

    Planes (16): mover symbols, opponent symbols, black squares, opening black squares, legal
    claims, legal blackenings, game-2 flag, opening flag, last-turn flag, mover's turns left /
    16, mover's current-game score / 50, opponent's / 50, mover's game-1 margin / 50 (0 in game
    1), on each empty square what a symbol there adds to the mover's score / 25 and to the
    opponent's / 25, ones.
    """

    NAME, WIDTH, HEIGHT, NUM_ACTIONS, PLANES = "xando", 6, 6, 72, 16

    def __init__(self):
        self.outcome: str | None = None
        self.marks: list[set[int]] = [set(), set()]
        self.black: set[int] = set()
        self.opening: set[int] = set()
        self.first_game = [0, 0]
        self.second_game = False

    @property
    def to_move(self) -> int:
        filled = XO_CELLS - len(self.empty())
        return (filled & 1) ^ int(self.second_game)

    @classmethod
    def format_action(cls, action):
        if action >= XO_BLACKEN:
            return "#" + cell_name(action - XO_BLACKEN, XO_SIZE)
        return cell_name(action, XO_SIZE)

    @classmethod
    def parse_action(cls, text):
        trimmed = text.strip()
        offset = 0
        if trimmed.startswith("#"):
            trimmed, offset = trimmed[1:], XO_BLACKEN
            if trimmed[:1].isspace():
                trimmed = ""
        cell = parse_cell(trimmed, XO_SIZE, XO_SIZE)
        if cell is None:
            raise IllegalMove(f"'{text}' is not a move: expected a cell A1..F6, or #A1..#F6 to blacken it")
        return offset + cell

    def empty(self) -> list[int]:
        taken = self.marks[X] | self.marks[O] | self.black
        return [c for c in range(XO_CELLS) if c not in taken]

    def in_opening(self) -> bool:
        return not self.second_game and len(self.opening) < 4

    def on_last_turn(self) -> bool:
        return self.outcome is None and len(self.empty()) <= 2

    def turns_left(self, player: int) -> int:
        if self.outcome is not None:
            return 0
        taken = max(0, XO_CELLS - 4 - len(self.empty()))
        first = O if self.second_game else X
        mine = (taken + 1) // 2 if player == first else taken // 2
        return 16 - mine

    def game_scores(self) -> list[int]:
        return [xo_score(self.marks[X]), xo_score(self.marks[O])]

    def legal_moves(self):
        if self.outcome:
            return []
        empty = self.empty()
        if self.in_opening():
            return [XO_BLACKEN + c for c in empty]
        if self.on_last_turn():
            return empty + [XO_BLACKEN + c for c in empty]
        return empty

    def check(self, action):
        cell = action % XO_BLACKEN
        if action >= XO_BLACKEN:
            if not self.in_opening() and not self.on_last_turn():
                return "you may blacken a square only on your last turn of the game"
        elif self.in_opening():
            return "the game opens with four blackening moves: blacken a square (#C3)"
        return None if cell in self.empty() else "the square is occupied"

    def apply(self, action):
        if action >= XO_BLACKEN:
            cell = action - XO_BLACKEN
            if self.in_opening():
                self.opening.add(cell)
            self.black.add(cell)
        else:
            self.marks[self.to_move].add(action)
        if not self.empty():
            self._finish_game()

    def _finish_game(self):
        if self.second_game:
            x, o = self.scores()
            self.outcome = "x" if x > o else "o" if o > x else "draw"
        else:
            self.first_game = self.game_scores()
            self.marks = [set(), set()]
            self.black = set(self.opening)
            self.second_game = True

    def scores(self):
        game = self.game_scores()
        return [self.first_game[X] + game[X], self.first_game[O] + game[O]]

    def encode(self):
        planes = self._planes()
        mover, opponent = self.to_move, self.to_move ^ 1
        set_cells(planes[0], self.marks[mover])
        set_cells(planes[1], self.marks[opponent])
        set_cells(planes[2], self.black)
        set_cells(planes[3], self.opening)
        if self.outcome is None:
            empty, opening = self.empty(), self.in_opening()
            if not opening:
                set_cells(planes[4], empty)
            if opening or self.on_last_turn():
                set_cells(planes[5], empty)
        if self.second_game:
            planes[6, :] = 1.0
        if self.in_opening():
            planes[7, :] = 1.0
        if self.on_last_turn():
            planes[8, :] = 1.0
        planes[9, :] = scaled(self.turns_left(mover), 16.0)
        game = self.game_scores()
        planes[10, :] = scaled(game[mover], 50.0)
        planes[11, :] = scaled(game[opponent], 50.0)
        if self.second_game:
            planes[12, :] = scaled(self.first_game[mover] - self.first_game[opponent], 50.0)
        for plane, player in ((13, mover), (14, opponent)):
            now = xo_score(self.marks[player])
            for cell in self.empty():
                planes[plane, cell] = scaled(xo_score(self.marks[player] | {cell}) - now, 25.0)
        return self._shaped(planes)


# ======================================================================================
# adjacency
# ======================================================================================

ADJ_SIZE, ADJ_CELLS = 11, 121


def adj_cell(name: str) -> int:
    return parse_cell(name, ADJ_SIZE, ADJ_SIZE)


ADJ_EXTRA_TURN = [adj_cell(n) for n in ("E3", "G3", "E9", "G9")]
ADJ_TRIPLE = [adj_cell(n) for n in ("C3", "I3", "C9", "I9")]
ADJ_DOUBLE = [adj_cell(n) for n in ("D5", "H5", "D7", "H7")]
ADJ_FREE = [adj_cell(n) for n in ("F1", "F11")]
ADJ_MULTIPLIER = [3 if c in ADJ_TRIPLE else 2 if c in ADJ_DOUBLE else 1 for c in range(ADJ_CELLS)]
ADJ_NEIGHBOURS = [
    [
        (r + dr) * ADJ_SIZE + (c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < ADJ_SIZE and 0 <= c + dc < ADJ_SIZE
    ]
    for r, c in (divmod(cell, ADJ_SIZE) for cell in range(ADJ_CELLS))
]


class Adjacency(Game):
    """The 11x11 adjacency scoring game (crates/variants/src/adjacency/mod.rs).

    A placement scores (1 + own marks touching + 2 x opponent marks touching) x multiplier (3
    on C3 I3 C9 I9, 2 on D5 H5 D7 H7); touching = the 8 neighbours. E3 G3 E9 G9 give another
    turn (chaining). F1 and F11 are free spaces: never playable, nobody's. The game ends when
    no playable cell is empty; higher points win.

    Planes (12): mover marks, opponent marks, legal (empty playable) cells, T squares, X3
    squares, X2 squares, free spaces, what the mover would score on each empty cell / 24, what
    the opponent would score there / 24, mover points / 400, opponent points / 400, ones.
    """

    NAME, WIDTH, HEIGHT, NUM_ACTIONS, PLANES = "adjacency", 11, 11, 121, 12

    def __init__(self):
        super().__init__()
        self.owner: list[int | None] = [None] * ADJ_CELLS
        self.points = [0, 0]

    def empty(self) -> list[int]:
        return [c for c in range(ADJ_CELLS) if self.owner[c] is None and c not in ADJ_FREE]

    def gain(self, player: int, cell: int) -> int:
        """What `player` would score by placing on `cell` now."""
        own = sum(self.owner[n] == player for n in ADJ_NEIGHBOURS[cell])
        theirs = sum(self.owner[n] == player ^ 1 for n in ADJ_NEIGHBOURS[cell])
        return (1 + own + 2 * theirs) * ADJ_MULTIPLIER[cell]

    def legal_moves(self):
        return self.empty()

    def check(self, action):
        return None if action in self.empty() else "the square is occupied"

    def apply(self, action):
        me = self.to_move
        self.points[me] += self.gain(me, action)
        self.owner[action] = me
        if action not in ADJ_EXTRA_TURN:
            self.to_move ^= 1
        if not self.empty():
            x, o = self.points
            self.outcome = "x" if x > o else "o" if o > x else "draw"

    def scores(self):
        return list(self.points)

    def encode(self):
        planes = self._planes()
        mover, opponent = self.to_move, self.to_move ^ 1
        empty = self.empty()
        set_cells(planes[0], [c for c in range(ADJ_CELLS) if self.owner[c] == mover])
        set_cells(planes[1], [c for c in range(ADJ_CELLS) if self.owner[c] == opponent])
        set_cells(planes[2], empty)
        set_cells(planes[3], ADJ_EXTRA_TURN)
        set_cells(planes[4], ADJ_TRIPLE)
        set_cells(planes[5], ADJ_DOUBLE)
        set_cells(planes[6], ADJ_FREE)
        for cell in empty:
            planes[7, cell] = scaled(self.gain(mover, cell), 24.0)
            planes[8, cell] = scaled(self.gain(opponent, cell), 24.0)
        planes[9, :] = scaled(self.points[mover], 400.0)
        planes[10, :] = scaled(self.points[opponent], 400.0)
        return self._shaped(planes)


# ======================================================================================
# connect4
# ======================================================================================


class Connect4(Game):
    """Connect Four, 7 columns by 6 rows (crates/variants/src/connect4/mod.rs).

    Actions are cells, not columns: the legal ones are the lowest empty cell of each column
    that is not full (`D6` is the bottom cell of the centre column). Four of a player's discs
    in a line (row, column or either diagonal) win at once; a full board without one is a
    draw. The mover is X when both have dropped equally many discs, also once the game is over.

    Planes (6): mover discs, opponent discs, legal cells (none once over), legal cells where
    the mover's disc makes four, legal cells where the opponent's disc would, ones.
    """

    NAME, WIDTH, HEIGHT, NUM_ACTIONS, PLANES = "connect4", 7, 6, 42, 6
    # Every line of four cells: from each cell, right, down, down-right and down-left.
    LINES = [
        tuple((row + k * dr) * 7 + col + k * dc for k in range(4))
        for row in range(6)
        for col in range(7)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
        if 0 <= row + 3 * dr < 6 and 0 <= col + 3 * dc < 7
    ]

    def __init__(self):
        super().__init__()
        self.discs: list[set[int]] = [set(), set()]

    def occupied(self, cell: int) -> bool:
        return cell in self.discs[X] or cell in self.discs[O]

    def landing(self) -> list[int]:
        """The lowest empty cell of each column that is not full, in increasing index order."""
        cells = []
        for col in range(7):
            empty = [row for row in range(6) if not self.occupied(row * 7 + col)]
            if empty:
                cells.append(max(empty) * 7 + col)
        return sorted(cells)

    def makes_four(self, player: int, cell: int) -> bool:
        """Whether `player`'s disc on `cell` would complete four in a line."""
        mine = self.discs[player] | {cell}
        return any(cell in line and all(c in mine for c in line) for line in self.LINES)

    def legal_moves(self):
        return [] if self.outcome else self.landing()

    def check(self, action):
        if self.occupied(action):
            return "the square is occupied"
        if action not in self.landing():
            return "a disc falls to the lowest empty cell of its column"
        return None

    def apply(self, action):
        mover = self.to_move
        self.discs[mover].add(action)
        self.to_move ^= 1
        if any(all(c in self.discs[mover] for c in line) for line in self.LINES):
            self.outcome = "x" if mover == X else "o"
        elif len(self.discs[X]) + len(self.discs[O]) == 42:
            self.outcome = "draw"

    def encode(self):
        planes = self._planes()
        mover = self.to_move
        legal = self.legal_moves()
        set_cells(planes[0], self.discs[mover])
        set_cells(planes[1], self.discs[mover ^ 1])
        set_cells(planes[2], legal)
        set_cells(planes[3], [c for c in legal if self.makes_four(mover, c)])
        set_cells(planes[4], [c for c in legal if self.makes_four(mover ^ 1, c)])
        return self._shaped(planes)


VARIANTS: dict[str, type[Game]] = {
    cls.NAME: cls for cls in (TicTacToe, Ultimate, Extreme, PayToPlay, XAndO, Adjacency, Connect4)
}


# ======================================================================================
# the model
# ======================================================================================


def replay(cls: type[Game], moves: list[str]) -> Game:
    """The position after `moves` (move texts), or IllegalMove naming the bad one."""
    game = cls()
    for number, text in enumerate(moves, 1):
        try:
            game.play(cls.parse_action(text))
        except IllegalMove as error:
            raise IllegalMove(f"move {number} ('{text}'): {error}") from None
    return game


class Model:
    """An exported model directory: `model.json` checked against the port, `model.onnx` loaded."""

    def __init__(self, directory: str):
        with open(os.path.join(directory, "model.json")) as f:
            meta = json.load(f)
        if meta.get("format") != "oxo-model":
            raise SystemExit(f"{directory}/model.json: not an oxo model (format {meta.get('format')!r})")
        variant = meta["variant"]
        if variant not in VARIANTS:
            raise SystemExit(f"unknown variant {variant!r}: this script knows {', '.join(VARIANTS)}")
        self.cls = cls = VARIANTS[variant]
        shape = meta["input"]["shape"]
        if list(shape[1:]) != [cls.PLANES, cls.HEIGHT, cls.WIDTH]:
            raise SystemExit(f"model input shape {shape} does not match {variant}'s encoder "
                             f"[batch, {cls.PLANES}, {cls.HEIGHT}, {cls.WIDTH}]")
        moves = meta["actions"]["moves"]
        ours = [cls.format_action(a) for a in range(cls.NUM_ACTIONS)]
        if meta["actions"]["count"] != cls.NUM_ACTIONS or moves != ours:
            raise SystemExit(f"model.json's actions do not match {variant}'s notation")
        self.moves = moves
        self.input_name = meta["input"].get("name", "planes")
        import onnxruntime  # imported late so --planes works without it

        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        self.session = onnxruntime.InferenceSession(
            os.path.join(directory, "model.onnx"), options, providers=["CPUExecutionProvider"])
        self.outputs = [o.name for o in self.session.get_outputs()]

    def evaluate(self, games: list[Game]) -> list[dict]:
        """One network call for every position; the JSON-ready answer for each."""
        if not games:
            return []
        batch = np.stack([g.encode() for g in games]).astype(np.float32)
        results = dict(zip(self.outputs, self.session.run(self.outputs, {self.input_name: batch})))
        answers = []
        for i, game in enumerate(games):
            wdl = softmax(results["wdl_logits"][i])
            legal = game.legal_moves()
            policy = softmax(results["policy_logits"][i][legal]) if legal else []
            answer = {
                "value": float(wdl[0] - wdl[2]),
                "wdl": [float(p) for p in wdl],
                "policy": {self.moves[a]: float(p) for a, p in zip(legal, policy)},
            }
            if "score" in results:
                answer["score"] = float(results["score"][i][0])
            answers.append(answer)
        return answers


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.asarray(logits, dtype=np.float64)
    e = np.exp(z - z.max())
    return e / e.sum()


def format_planes(planes: np.ndarray) -> str:
    """The planes as a JSON list, each float32 written as its shortest round-trip decimal."""
    values = (np.format_float_positional(v, unique=True, trim="0") for v in planes.ravel())
    return "[" + ",".join(values) + "]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", help="directory written by `oxo export` (model.onnx, model.json)")
    parser.add_argument("moves", nargs="*", help="moves from the opening position (A1, pass, #C3)")
    parser.add_argument("--batch", metavar="FILE",
                        help="evaluate one move list per line of FILE ('-' for stdin)")
    parser.add_argument("--planes", action="store_true",
                        help="print the encoded input (plane-major JSON list) instead")
    args = parser.parse_intermixed_args(argv)
    if args.batch and (args.moves or args.planes):
        parser.error("--batch takes no moves and no --planes")

    try:
        if args.planes:
            with open(os.path.join(args.dir, "model.json")) as f:
                variant = json.load(f)["variant"]
            if variant not in VARIANTS:
                raise SystemExit(f"unknown variant {variant!r}")
            print(format_planes(replay(VARIANTS[variant], args.moves).encode()))
            return 0
        model = Model(args.dir)
        if args.batch:
            stream = sys.stdin if args.batch == "-" else open(args.batch)
            with stream:
                lines = stream.read().splitlines()
            games = []
            for number, line in enumerate(lines, 1):
                try:
                    games.append(replay(model.cls, line.split()))
                except IllegalMove as error:
                    raise IllegalMove(f"{args.batch} line {number}: {error}") from None
        else:
            games = [replay(model.cls, args.moves)]
        for answer in model.evaluate(games):
            print(json.dumps(answer))
    except IllegalMove as error:
        print(f"oxo_onnx: {error}", file=sys.stderr)
        return 2
    except (OSError, ValueError, KeyError) as error:  # a missing or malformed model directory
        print(f"oxo_onnx: cannot read the model in {args.dir}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
