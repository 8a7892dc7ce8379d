"""The steps a bot's driver takes, each a short transaction (a bot is seated by the race
lifecycle's bot_join, and driven by games/worker/bots.py).

A bot's seat is leased by one worker at a time (BotSeat.worker, lease_until): a pass claims
seats whose lease ran out with a conditional UPDATE, and every step renews the lease only if
this worker still holds it, so two workers never drive one bot.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from games.boards.stored import board_of
from games.bots.levels import LEVELS, TYPICAL_BBBV
from games.bots.models import BotSeat
from games.engine.codec import decode
from games.engine.sweep import CellState
from games.models import Game, GameStatus, Player, PlayerStatus
from games.runtime.worker import WORKER

LEASE = timedelta(seconds=5)
MIN_CLICK_S = 0.25  # no person clicks faster, so neither does a bot


def seats_claim() -> list[str]:
    """Take every bot seat whose lease ran out (or never began); the ones this worker got."""
    now = timezone.now()
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    claimed = []
    for player_id in BotSeat.objects.filter(free, done=False).values_list("player_id", flat=True):
        taken = BotSeat.objects.filter(free, pk=player_id, done=False).update(
            worker=WORKER, lease_until=now + LEASE
        )
        if taken:
            claimed.append(player_id)
    return claimed


@dataclass(frozen=True)
class Step:
    """What the driver does next: wait, move (with what the brain needs), or stop."""

    kind: str  # "wait", "move", "stop"
    delay_s: float = 0.5
    args: tuple = ()


def step_plan(*, player_id: str, number: int) -> Step:
    """Renew the lease and decide what comes next from the bot's own sweep."""
    now = timezone.now()
    if not BotSeat.objects.filter(pk=player_id, worker=WORKER).update(lease_until=now + LEASE):
        return Step("stop")  # another worker holds it now
    player = Player.objects.select_related("game").filter(pk=player_id).first()
    if player is None:
        return Step("stop")
    game = player.game
    if game.status in (GameStatus.LOBBY, GameStatus.COUNTDOWN):
        return Step("wait", 0.3)
    if game.status != GameStatus.RUNNING or player.status != PlayerStatus.PLAYING:
        BotSeat.objects.filter(pk=player_id).update(done=True, lease_until=None)
        return Step("stop")
    knowledge = _revealed(game, player)
    safe_cells = game.width * game.height - game.mines
    seat = BotSeat.objects.get(pk=player_id)
    budget_s = TYPICAL_BBBV.get(game.preset, safe_cells / 4) / LEVELS[seat.level].pace
    due = game.started_at + timedelta(seconds=budget_s * len(knowledge) / safe_cells)
    delay = max(MIN_CLICK_S, (due - now).total_seconds())
    start = game.safe_y * game.width + game.safe_x
    seed = zlib.crc32(f"{player_id}:{number}".encode())
    args = (game.width, game.height, game.mines, knowledge, seed, start)
    return Step("move", delay, args)


def _revealed(game: Game, player: Player) -> dict[int, int]:
    """The bot's knowledge: the numbers its own sweep has revealed, nothing else."""
    snapshot = bytes(player.snapshot)
    if not snapshot:
        return {}
    state = decode(snapshot, game.width, game.height)
    numbers = board_of(game).numbers  # read only where the bot's sweep shows a revealed cell
    return {i: numbers[i] for i, s in enumerate(state) if s == CellState.REVEALED}
