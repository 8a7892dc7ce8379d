"""Setting up races for protocol tests."""

from __future__ import annotations

from typing import Any

from games.engine import generate_board, start_cell
from tests.play.helpers import Client, create_game, player

SEED = "minerace"  # 9x9: start cell (4, 2)


async def race(names=("alice", "bob"), **body: Any) -> tuple[str, list[Client], list[dict]]:
    """A race in the lobby with these players joined (every joined frame consumed)."""
    game_id = await create_game(mode="race", preset="beginner", seed=SEED, **body)
    clients, welcomes = [], []
    for name in names:
        client, welcome = await player(game_id, name)
        for earlier in clients:
            assert (await earlier.expect("joined"))["player"]["name"] == name
        clients.append(client)
        welcomes.append(welcome)
    return game_id, clients, welcomes


async def start(clients: list[Client], watchers: list[Client] = ()) -> dict[str, Any]:
    """Everyone ready, through the countdown, until `started`; returns the started frame."""
    for client in clients:
        answer = await client.request({"type": "ready"})
        assert answer["type"] == "ready", answer
    started = None
    for client in [*clients, *watchers]:
        # `ready` frames of others may come late (the layer and the socket are two queues).
        kinds = []
        while not kinds or kinds[-1] != "started":
            frame = await client.recv()
            kinds.append(frame["type"])
            if frame["type"] == "countdown":
                assert frame["start"] == list(start_cell(9, 9, SEED))
            elif frame["type"] == "started":
                started = frame
        assert [k for k in kinds if k != "ready"] == ["countdown", "started"], kinds
    return started


def race_board():
    return generate_board(9, 9, 10, SEED, start_cell(9, 9, SEED))


async def solve(client: Client, board, player_id: str) -> list[dict]:
    """Reveal every safe cell of the board through the protocol until the win."""
    answers = []
    opened: set[int] = set()
    for index in range(board.size):
        if board.is_mine(index) or index in opened:
            continue
        answer = await client.request({"type": "reveal", "x": index % 9, "y": index // 9})
        assert answer["type"] == "cells" and answer["player"] == player_id, answer
        answers.append(answer)
        opened |= {board.index(x, y) for x, y, _ in answer["cells"]}
        if answer["status"] == "won":
            break
    return answers
