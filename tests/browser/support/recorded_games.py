"""Recorded games for checking the browser's replay engine against the Python engine.

A game is what the replay page gets: the board (width, height, mine_cells), its players and
the move log ({player, seq, action, x, y, t_ms}, in the order the server accepted the moves).
Beside it, `frames`: the mover's board after every move of the log as the Python engine has
it, one line each (see `frame`). The games are made here, deterministically, by simple players
on boards of many shapes, and read from real players' replay videos in fixtures/.
"""

from __future__ import annotations

import random
from pathlib import Path

from games.engine import Board, Sweep, SweepStatus, generate_board, move_from_action, start_cell
from games.engine.sweep import CellState

HUMAN_REPLAYS = Path(__file__).resolve().parents[2] / "fixtures" / "human_replays"
# A video's click that changed the board, by its useful_level in ms_toollib's analysis.
VIDEO_ACTIONS = {1: "flag", 2: "reveal", 3: "chord"}
# (width, height, mines, players): the three presets, a 1-mine and a dense board, and the
# narrow shapes where the neighbours of an edge cell are few.
SHAPES = [
    (9, 9, 10, 1),
    (9, 9, 10, 3),
    (16, 16, 40, 1),
    (16, 16, 40, 2),
    (30, 16, 99, 1),
    (30, 16, 99, 2),
    (9, 9, 1, 1),
    (8, 8, 50, 2),
    (12, 1, 3, 1),
    (1, 12, 3, 1),
    (5, 30, 20, 1),
]
GAMES_PER_SHAPE = 12


# A cell as the replay page draws it: "h" hidden, "f" flag, "x" the mine stepped on, "0".."8".
CELL_CODES = {"H": "h", "F": "f", "X": "x"}


def frame(cells: list[str], sweep: Sweep) -> str:
    """A board's cells, then its status, revealed cells, flags and clicks."""
    return f"{''.join(cells)} {sweep.status.value} {sweep.revealed} {sweep.flags} {sweep.clicks}"


def cells_of(sweep: Sweep) -> list[str]:
    """The cells of a sweep read from its state (the frames follow the cells each move
    changed; this checks them at the end)."""
    numbers = sweep.board.numbers
    codes = {CellState.HIDDEN: "h", CellState.FLAGGED: "f", CellState.EXPLODED: "x"}
    return [
        str(numbers[index]) if state == CellState.REVEALED else codes[state]
        for index, state in enumerate(sweep.state)
    ]


def replayed(width: int, height: int, mines: list[int], log: list[tuple[str, str, int, int]]):
    """A game of these mines and log (player, action, x, y) and the engine's frames of it."""
    board = Board(width, height, mines)
    sweeps: dict[str, Sweep] = {}
    cells: dict[str, list[str]] = {}
    moves, frames = [], []
    for number, (player, action, x, y) in enumerate(log):
        if player not in sweeps:
            sweeps[player] = Sweep(width, height, board.mine_count, board)
            cells[player] = ["h"] * (width * height)
        sweep = sweeps[player]
        for cx, cy, value in sweep.apply(move_from_action(action, x, y)):
            cells[player][cy * width + cx] = CELL_CODES.get(value, str(value))
        seq, t_ms = sweep.clicks, number * 100  # a player's moves are numbered from 1
        moves.append({"player": player, "seq": seq, "action": action, "x": x, "y": y, "t_ms": t_ms})
        frames.append(frame(cells[player], sweep))
    for player, sweep in sweeps.items():
        assert cells[player] == cells_of(sweep), f"the changed cells missed some of {player}'s"
    game = {
        "width": width,
        "height": height,
        "mine_cells": [[mine % width, mine // width] for mine in sorted(mines)],
        "players": [{"id": player, "name": player} for player in sweeps],
        "moves": moves,
    }
    return game, frames


class Player:
    """A simple player: the sure moves it sees (flag a number's last hidden cells, chord a
    satisfied number), a wrong flag now and then, idle clicks, and a guess when stuck."""

    def __init__(self, sweep: Sweep, rng: random.Random, careless: float) -> None:
        self.sweep = sweep
        self.rng = rng
        self.careless = careless
        self.plan: list[tuple[str, int]] = []  # sure moves seen, taken while they still are

    def cells(self, state: CellState) -> list[int]:
        return [index for index, value in enumerate(self.sweep.state) if value == state]

    def sure_moves(self) -> list[tuple[str, int]]:
        numbers, state = self.sweep.board.numbers, self.sweep.state
        table = self.sweep.board.neighbours
        moves = []
        for index in self.cells(CellState.REVEALED):
            if numbers[index] == 0:
                continue
            hidden = [n for n in table[index] if state[n] == CellState.HIDDEN]
            if not hidden:
                continue
            flags = sum(state[n] == CellState.FLAGGED for n in table[index])
            if numbers[index] == flags:
                moves.append(("chord", index))
            elif numbers[index] == flags + len(hidden):
                moves.extend(("flag", n) for n in hidden)
        return moves

    def still_sure(self, move: tuple[str, int]) -> bool:
        action, index = move
        state = self.sweep.state
        if action == "flag":
            return state[index] == CellState.HIDDEN
        return any(state[n] == CellState.HIDDEN for n in self.sweep.board.neighbours[index])

    def next_move(self) -> tuple[str, int]:
        roll = self.rng.random()
        if roll < self.careless:  # often wrong: a later chord may explode
            return "flag", self.rng.choice(self.cells(CellState.HIDDEN) or [0])
        if roll < 2 * self.careless:  # a click that may change nothing
            action = self.rng.choice(["reveal", "flag", "chord"])
            return action, self.rng.randrange(len(self.sweep.state))
        self.plan = [move for move in self.plan if self.still_sure(move)] or self.sure_moves()
        if self.plan:
            return self.plan.pop(self.rng.randrange(len(self.plan)))
        hidden, flagged = self.cells(CellState.HIDDEN), self.cells(CellState.FLAGGED)
        if flagged and (not hidden or self.rng.random() < 0.3):
            return "flag", self.rng.choice(flagged)  # take a flag back
        return "reveal", self.rng.choice(hidden)


def generated_game(index: int, shape: tuple[int, int, int, int]):
    """One game of a shape: every player starts on the race's start cell, then they take turns
    at random until each has won or lost (or 400 clicks); no move follows a player's end."""
    width, height, mines, players = shape
    rng = random.Random(index)
    seed = f"replay-engine-{index}"
    start = start_cell(width, height, seed)
    board = generate_board(width, height, mines, seed, start)
    careless = rng.choice([0.0, 0.05, 0.15])
    ids = [f"p{number}" for number in range(1, players + 1)]
    sweeps = {player: Sweep(width, height, mines, board) for player in ids}
    thinking = {player: Player(sweeps[player], rng, careless) for player in ids}
    log = []
    for player in ids:
        sweeps[player].apply(move_from_action("reveal", *start))
        log.append((player, "reveal", *start))
    playing = [player for player in ids if sweeps[player].status is SweepStatus.PLAYING]
    while playing:
        player = rng.choice(playing)
        sweep = sweeps[player]
        action, cell = thinking[player].next_move()
        x, y = cell % width, cell // width
        sweep.apply(move_from_action(action, x, y))
        log.append((player, action, x, y))
        if sweep.status is not SweepStatus.PLAYING or sweep.clicks >= 400:
            playing.remove(player)
    return replayed(width, height, sorted(board.mines), log)


def generated_games():
    """GAMES_PER_SHAPE games of every shape."""
    return [
        generated_game(number * GAMES_PER_SHAPE + index, shape)
        for number, shape in enumerate(SHAPES)
        for index in range(GAMES_PER_SHAPE)
    ]


def human_game(path: Path):
    """A replay video's game: its mines and its clicks that changed the board, in order."""
    import ms_toollib

    reader = {".avf": ms_toollib.AvfVideo, ".evf": ms_toollib.EvfVideo}
    video = reader.get(path.suffix, ms_toollib.RmvVideo)(str(path))
    video.parse()
    video.analyse()
    width, height, pixels = video.column, video.row, video.pix_size
    mines = [y * width + x for y in range(height) for x in range(width) if video.board[y][x] == -1]
    log = []
    for event in video.events:
        if event.useful_level > 0 and event.event.is_mouse():
            mouse = event.event.unwrap_mouse()
            action = VIDEO_ACTIONS[event.useful_level]
            log.append(("human", action, mouse.x // pixels, mouse.y // pixels))
    return replayed(width, height, mines, log)


def human_games():
    return [human_game(path) for path in sorted(HUMAN_REPLAYS.glob("*.*")) if path.suffix != ".md"]
