"""Boards for tests, drawn as pictures: '*' a mine, '.' safe."""

from games.engine import Board, CellState
from games.engine.codec import decode


def board(picture: str) -> Board:
    return Board.from_picture(picture)


def knowledge(truth: Board, snapshot: bytes) -> str:
    """What a player's snapshot shows of a board, as a picture: '#' hidden, 'F' a flag, 'X'
    the mine stepped on, '.' an open zero, a digit an open number."""
    state = decode(snapshot, truth.width, truth.height)
    marks = {CellState.HIDDEN: "#", CellState.FLAGGED: "F", CellState.EXPLODED: "X"}
    chars = [
        marks.get(cell) or ("." if truth.numbers[i] == 0 else str(truth.numbers[i]))
        for i, cell in enumerate(state)
    ]
    return "\n".join(
        "".join(chars[row * truth.width : (row + 1) * truth.width]) for row in range(truth.height)
    )
