"""Boards for tests, drawn as pictures: '*' a mine, '.' safe."""

from games.engine import Board


def board(picture: str) -> Board:
    return Board.from_picture(picture)
