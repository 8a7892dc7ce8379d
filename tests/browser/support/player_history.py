"""A player's long history for the player page's browser tests: ranked games written straight
into the test server's database (a game, its one player and the score score_record() makes of
it), as if they had been played over weeks, so filters, pages and charts have known answers.

The rows are written by a child process that sets Django up on the server's SQLite file: the
test process itself never configures Django (other browser tests run beside it).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.browser.support import REPO_ROOT

BOARDS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}


@dataclass(frozen=True)
class Played:
    """One ranked game of the player, as its score will say."""

    preset: str
    variant: str  # classic or no_guess
    mode: str  # solo or race
    status: str  # won, lost or dnf
    time_ms: int | None
    bbbv: int
    clicks: int
    finished_at: str  # ISO 8601, UTC


def career(games: int = 130, days: int = 60, seed: int = 14) -> list[Played]:
    """A player's games, oldest first: beginner and intermediate wins getting faster, losses
    and unfinished races among them, a few no-guess boards, and expert never won."""
    rng = random.Random(seed)
    start = datetime.now(UTC) - timedelta(days=days)
    played = []
    for k in range(games):
        progress = k / games
        preset = rng.choices(list(BOARDS), weights=(55, 33, 12))[0]
        variant = "no_guess" if rng.random() < 0.15 else "classic"
        mode = "race" if rng.random() < 0.35 else "solo"
        roll = rng.random()
        if preset == "expert" or roll < 0.3:
            status = "dnf" if mode == "race" and roll < 0.1 else "lost"
        else:
            status = "won"
        slow, fast, bbbv_range = {
            "beginner": (24.0, 8.0, (12, 36)),
            "intermediate": (95.0, 42.0, (60, 140)),
            "expert": (260.0, 150.0, (150, 220)),
        }[preset]
        seconds = (slow - (slow - fast) * progress) * rng.uniform(0.8, 1.25)
        bbbv = rng.randint(*bbbv_range)
        finished = start + timedelta(minutes=k * days * 24 * 60 / games + rng.randint(0, 90))
        played.append(
            Played(
                preset=preset,
                variant=variant,
                mode=mode,
                status=status,
                time_ms=round(seconds * 1000) if status == "won" else None,
                bbbv=bbbv,
                clicks=bbbv + rng.randint(0, 25),
                finished_at=finished.isoformat(),
            )
        )
    return played


def seed_career(database: Path, name: str, games: list[Played]) -> None:
    """Write `games` (oldest first) as `name`'s ranked games into the server's database."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
    }
    payload = json.dumps({"name": name, "games": [asdict(game) for game in games]})
    subprocess.run(
        [sys.executable, "-c", "from tests.browser.support.player_history import _write; _write()"],
        input=payload,
        text=True,
        cwd=REPO_ROOT,
        env=env,
        check=True,
        capture_output=True,
    )


def _write() -> None:
    """In the child process: read the payload on stdin and write its rows."""
    import django

    django.setup()
    from django.db import transaction

    from games.models import Game, GameStatus, Player
    from games.names import name_skeleton
    from games.scores.records import score_record

    payload = json.load(sys.stdin)
    name = payload["name"]
    with transaction.atomic():
        for number, spec in enumerate(payload["games"]):
            played = Played(**spec)
            width, height, mines = BOARDS[played.preset]
            finished_at = datetime.fromisoformat(played.finished_at)
            game = Game.objects.create(
                mode=played.mode, preset=played.preset, width=width, height=height, mines=mines,
                max_players=2 if played.mode == "race" else 1, ranked=True,
                no_guess=played.variant == "no_guess", seed=f"history-{number}",
                seed_commitment="x", status=GameStatus.FINISHED, bbbv=played.bbbv, safe_x=0,
                safe_y=0, started_at=finished_at - timedelta(minutes=5), finished_at=finished_at,
            )  # fmt: skip
            player = Player.objects.create(
                game=game, name=name, name_key=name_skeleton(name),
                token_hash=f"history-{game.id}", status=played.status, time_ms=played.time_ms,
                clicks=played.clicks, finished_at=finished_at,
            )  # fmt: skip
            score_record(game=game, player=player)
