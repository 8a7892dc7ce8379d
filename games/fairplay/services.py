"""Screening the games that count as they end, and clearing a game under review.

`game_screen` runs inside the transaction that ends the game (games/races/finishing.py), before
the scores are written: the screen is there before `game_over` is sent, a worker killed after
the commit cannot lose it, and a score under review is written held, so no leaderboard, best
or record ever shows it. `review_clear` releases it as if it had never waited.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.boards.log import logged, player_log
from games.boards.stored import board_of
from games.engine.statistics import bbbv_per_s
from games.errors import ServiceError
from games.fairplay.counting import counts_of
from games.fairplay.models import Review, ReviewStatus
from games.fairplay.screening import (
    Outcome,
    ReceivedMove,
    Screen,
    Thresholds,
    record_signal,
    screen,
)
from games.models import Game, Player, PlayerStatus, Score
from games.scores.leaderboards import all_time_entries, all_time_leader
from games.scores.records import score_release


def thresholds() -> Thresholds:
    """The screen's thresholds, as this server's settings set them."""
    game = settings.MINERACE
    return Thresholds(
        pace_ceilings={
            "beginner": game["FAIRPLAY_PACE_BEGINNER"],
            "intermediate": game["FAIRPLAY_PACE_INTERMEDIATE"],
            "expert": game["FAIRPLAY_PACE_EXPERT"],
        },
        reaction_floor_ms=game["FAIRPLAY_REACTION_MS"],
        metronome_floor=game["FAIRPLAY_METRONOME"],
        min_moves=game["FAIRPLAY_MIN_MOVES"],
        record_min_entries=game["FAIRPLAY_RECORD_ENTRIES"],
    )


def received_moves(*, player_id: str) -> list[ReceivedMove]:
    """The player's move log with the server's clock at each move (its step's `now`, written
    as the row's created_at): the client's own clock never enters the log."""
    return [
        ReceivedMove(logged(row), round(row.created_at.timestamp() * 1000))
        for row in player_log(player_id=player_id)
    ]


def _outcome(game: Game, player: Player) -> Outcome:
    won = player.status == PlayerStatus.WON
    return Outcome(
        won=won,
        time_ms=player.time_ms if won else None,
        bbbv_per_s=bbbv_per_s(game.bbbv, player.time_ms) if won and game.bbbv else None,
        preset=game.preset or None,
        variant=game.variant,
    )


def _player_screen(*, game: Game, player: Player, counts: list[str], limits: Thresholds) -> Screen:
    """The screen of one player's finished game, `record` included (it reads the leaderboard
    as it stands before this result joins it)."""
    outcome = _outcome(game, player)
    found = screen(board_of(game), received_moves(player_id=player.id), outcome, limits)
    if "leaderboard" in counts and outcome.time_ms is not None:
        board = {"preset": game.preset, "variant": game.variant}
        leader = all_time_leader(**board)
        if leader is not None and outcome.time_ms < leader:  # counted only for a would-be first
            record = record_signal(
                time_ms=outcome.time_ms,
                leader_time_ms=leader,
                entries=all_time_entries(**board),
                thresholds=limits,
            )
            if record is not None:
                found = Screen({**found.signals, "record": record}, found.timing)
    return found


@transaction.atomic
def game_screen(*, game: Game, players: list[Player], now: datetime) -> set[str]:
    """Screen every player whose finished game counts (an account's); write one Review each.
    Returns the ids of the players now under review, whose scores must be written held."""
    limits = thresholds()
    held = set()
    for player in players:
        counts = counts_of(game, player)
        if not counts:
            continue
        found = _player_screen(game=game, player=player, counts=counts, limits=limits)
        Review.objects.create(
            game=game,
            player=player,
            user_id=player.user_id,
            counts=counts,
            signals=found.signals,
            timing=found.timing.figures(),
            status=ReviewStatus.UNDER_REVIEW if found.signals else None,
            screened_at=now,
        )
        if found.signals:
            held.add(player.id)
    return held


@transaction.atomic
def review_clear(*, review_id: int) -> Review:
    """A moderator clears a game under review: its score counts again, in the place it would
    have had. Clearing a cleared game changes nothing (two moderators may press at once)."""
    review = Review.objects.select_for_update().filter(pk=review_id).first()
    if review is None:
        raise ServiceError("not_found", "no such review")
    if review.status == ReviewStatus.CLEARED:
        return review
    if review.status != ReviewStatus.UNDER_REVIEW:
        raise ServiceError("invalid", "only a game under review can be cleared", "status")
    review.status = ReviewStatus.CLEARED
    review.decided_at = timezone.now()
    review.save(update_fields=["status", "decided_at"])
    score = Score.objects.filter(player_id=review.player_id).values_list("id", flat=True).first()
    if score is not None:
        score_release(score_id=score)
    return review
