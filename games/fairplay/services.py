"""Screening the games that count as they end, and the moderators' decisions on them.

`game_screen` runs inside the transaction that ends the game (games/races/finishing.py), before
the scores are written: the screen is there before `game_over` is sent, a worker killed after
the commit cannot lose it, and a score under review is written held, so no leaderboard, best
or record ever shows it. `review_clear` releases it (and the games of its window) as if it
had never waited; `account_mark`
takes every game of an account off the boards for good and refunds its victims
(docs/protocol.md 6.4); `report_create` puts a player's game in the moderators' queue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.accounts.models import Account
from games.boards.log import logged, player_log
from games.boards.stored import board_of
from games.engine.statistics import bbbv_per_s
from games.errors import ServiceError
from games.fairplay.counting import counts_of
from games.fairplay.models import Mark, Report, Review, ReviewStatus
from games.fairplay.screening import (
    EarlierGame,
    Outcome,
    ReceivedMove,
    Screen,
    Thresholds,
    record_signal,
    screen,
)
from games.fairplay.selectors import marked_user_ids
from games.limits.locks import address_lock
from games.models import Game, GameStatus, Player, PlayerStatus, Score, Style
from games.ratings.refunds import ratings_settle_mark
from games.scores.leaderboards import all_time_entries, all_time_leader
from games.scores.records import account_scores_hold, score_release, scores_hold

# docs/protocol.md 6.4: the races a mark refunds ended this long before it; each account gets back
# at most this many rating points per mark.
REFUND_WINDOW = timedelta(days=7)
REFUND_CAP = 200
# docs/protocol.md 6.4: an account files at most this many reports in any 24 hours, and
# (3, v1.3) a client address this many, however many accounts it makes.
REPORTS_PER_DAY = 10
REPORTS_PER_ADDRESS = 20
REPORT_WINDOW = timedelta(hours=24)


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
        windows=(
            (game["FAIRPLAY_WINDOW_SHORT"], game["FAIRPLAY_METRONOME_SHORT"]),
            (game["FAIRPLAY_WINDOW_LONG"], game["FAIRPLAY_METRONOME_LONG"]),
        ),
        window_games=game["FAIRPLAY_WINDOW_GAMES"],
        record_min_entries=game["FAIRPLAY_RECORD_ENTRIES"],
    )


def window_review_age() -> timedelta:
    """docs/protocol.md 6.3: a window that fires puts under review its earlier games that ended
    this recently."""
    return timedelta(days=settings.MINERACE["FAIRPLAY_WINDOW_REVIEW_DAYS"])


def earlier_games(*, user_id: int, limit: int) -> list[EarlierGame]:
    """The account's earlier screened games as windows read them, latest first: games that
    counted for something (a game screened only for a report did not), none a moderator
    cleared (a cleared game, or a reported one whose reports a moderator answered)."""
    rows = (
        Review.objects.filter(user_id=user_id)
        .exclude(counts=[])
        .exclude(status=ReviewStatus.CLEARED)
        .exclude(status=None, decided_at__isnull=False)
        .order_by("-screened_at", "-id")
        .values_list("game_id", "intervals")[:limit]
    )
    return [EarlierGame(game_id, tuple(intervals)) for game_id, intervals in rows]


def received_moves(*, player_id: str) -> list[ReceivedMove]:
    """The player's move log with the server's clock when it read each move's frame from the
    connection (received_at; a move stored before that was kept: its step's created_at): the
    client's own clock never enters the log."""
    return [
        ReceivedMove(logged(row), round((row.received_at or row.created_at).timestamp() * 1000))
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
    """The screen of one player's finished game, its windows and `record` included (it reads
    the leaderboard as it stands before this result joins it). A game that counted for
    nothing (screened for a report) reaches into no window."""
    outcome = _outcome(game, player)
    earlier = []
    if counts and player.user_id is not None:
        earlier = earlier_games(user_id=player.user_id, limit=limits.window_games)
    moves = received_moves(player_id=player.id)
    found = screen(board_of(game), moves, outcome, limits, earlier)
    if "leaderboard" in counts and outcome.time_ms is not None:
        record = _record_figures(game, player, outcome.time_ms, limits)
        if record is not None:
            found = replace(found, signals={**found.signals, "record": record})
    return found


def _record_figures(game: Game, player: Player, time_ms: int, limits: Thresholds) -> Any:
    """`record`'s figures when the win would be first on its all-time board by time, of all
    wins or (an NF win, docs/protocol.md 9.3) of NF wins: the all-wins board's figures when it
    is first there, else the NF board's, and `styles`, the boards it would be first on."""
    fired: dict[str, Any] = {}
    for style in [Style.ALL, Style.NF] if player.nf else [Style.ALL]:
        board = {"preset": game.preset, "variant": game.variant, "style": style}
        leader = all_time_leader(**board)
        if leader is None or time_ms >= leader:  # counted only for a would-be first
            continue
        figures = record_signal(
            time_ms=time_ms,
            leader_time_ms=leader,
            entries=all_time_entries(**board),
            thresholds=limits,
        )
        if figures is not None:
            fired[str(style)] = figures
    if not fired:
        return None
    return {**next(iter(fired.values())), "styles": list(fired)}


@transaction.atomic
def game_screen(*, game: Game, players: list[Player], now: datetime) -> set[str]:
    """Screen every player whose finished game counts (an account's); write one Review each.
    Returns the ids of the players whose scores must be written held: those now under review,
    and every player of a marked account (its games count nowhere, docs/protocol.md 6.4)."""
    limits = thresholds()
    # The accounts' rows are locked (as account_mark locks its account's) so that a mark made
    # while this game ends is either seen here or made after this game's scores exist.
    accounts = sorted({player.user_id for player in players if player.user_id is not None})
    list(get_user_model().objects.select_for_update(no_key=True).filter(pk__in=accounts))
    marked = marked_user_ids(user_ids=accounts)
    held = {player.id for player in players if player.user_id in marked}
    for player in players:
        counts = counts_of(game, player)
        if not counts:
            continue
        found = _player_screen(game=game, player=player, counts=counts, limits=limits)
        status = ReviewStatus.UNDER_REVIEW if found.signals else None
        if player.user_id in marked:
            status = ReviewStatus.CHEAT  # decided by the mark: nothing left to review
        review = Review.objects.create(
            game=game,
            player=player,
            user_id=player.user_id,
            counts=counts,
            signals=found.signals,
            timing=found.timing.figures(),
            intervals=list(found.intervals),
            windows=found.windows_figures(),
            status=status,
            screened_at=now,
            decided_at=now if status == ReviewStatus.CHEAT else None,
        )
        if found.signals:
            held.add(player.id)
        if status == ReviewStatus.UNDER_REVIEW:
            _window_review(review, found, now)
    return held


def _window_review(review: Review, found: Screen, now: datetime) -> int:
    """A window that fired puts the earlier games it holds under review with the game that
    fired (docs/protocol.md 6.3): each that ended within window_review_age() and is not under
    review (nor decided), with the same signal and figures; their scores are held. In the
    transaction that ends the game, under its account's lock (game_screen). Returns how many."""
    reached = found.reached()
    games = {game_id for game_ids in reached.values() for game_id in game_ids}
    if not games:
        return 0
    rows = list(
        Review.objects.select_for_update()
        .filter(user_id=review.user_id, game_id__in=games, status=None, decided_at=None)
        .exclude(counts=[])
        .filter(game__finished_at__gte=now - window_review_age())
        .order_by("id")
    )
    for row in rows:
        fired = {name: found.signals[name] for name, ids in reached.items() if row.game_id in ids}
        row.signals = {**row.signals, **fired}
        row.status = ReviewStatus.UNDER_REVIEW
        row.window = review
        row.save(update_fields=["signals", "status", "window"])
    scores_hold(player_ids=[row.player_id for row in rows])
    return len(rows)


def review_clear(*, review_id: int, by: Any = None) -> Review:
    """A moderator clears a game (review_clear_window): the game's review, as it now stands."""
    review_clear_window(review_id=review_id, by=by)
    return Review.objects.get(pk=review_id)


@transaction.atomic
def review_clear_window(*, review_id: int, by: Any = None) -> list[int]:
    """A moderator clears a game: under review, its score counts again, in the place it would
    have had, and so does every game of its window (docs/protocol.md 6.3: the game whose
    window fired and the earlier games it put under review are decided together); queued by
    reports only (nothing held), the reports are answered. Once, however many moderators
    press at once: the account's row is locked first (as account_mark and game_screen lock
    it), so a second press waits and finds the games cleared. A game judged cheat cannot be
    cleared. Returns the ids of the reviews this call cleared."""
    user_id = Review.objects.filter(pk=review_id).values_list("user_id", flat=True).first()
    if user_id is not None:
        list(get_user_model().objects.select_for_update(no_key=True).filter(pk=user_id))
    review = Review.objects.select_for_update().filter(pk=review_id).first()
    if review is None:
        raise ServiceError("not_found", "no such review")
    if review.status == ReviewStatus.CHEAT:
        raise ServiceError("invalid", "a game judged cheat cannot be cleared", "status")
    now = timezone.now()
    if review.status != ReviewStatus.UNDER_REVIEW:
        # Reports made since the last decision are answered; a game cleared a moment ago (by
        # a moderator who pressed first) keeps that decision.
        reports = Report.objects.filter(player_id=review.player_id)
        if review.decided_at is not None:
            reports = reports.filter(created_at__gt=review.decided_at)
        if reports.exists():
            review.decided_at, review.decided_by = now, by
            review.save(update_fields=["decided_at", "decided_by"])
        return []
    rows = window_reviews(review=review)
    for row in rows:
        _clear_one(row, now, by)
    return [row.pk for row in rows]


def window_reviews(*, review: Review) -> list[Review]:
    """The games decided with this one, itself included, locked: the game whose window fired
    and every game it put under review, those still under review, oldest first."""
    head = review.window_id or review.pk
    return list(
        Review.objects.select_for_update()
        .filter(Q(pk=head) | Q(window_id=head), status=ReviewStatus.UNDER_REVIEW)
        .order_by("id")
    )


def _clear_one(review: Review, now: datetime, by: Any) -> None:
    review.status = ReviewStatus.CLEARED
    review.decided_at, review.decided_by = now, by
    review.save(update_fields=["status", "decided_at", "decided_by"])
    score = Score.objects.filter(player_id=review.player_id).values_list("id", flat=True).first()
    if score is not None:
        score_release(score_id=score)


@dataclass(frozen=True, slots=True)
class Marked:
    """A mark, and whether this call made it (False: the account was marked already)."""

    mark: Mark
    new: bool


@transaction.atomic
def account_mark(*, user_id: int, by: Any = None) -> Marked:
    """A moderator marks an account as a cheat (docs/protocol.md 6.4), once: every game of it
    leaves every leaderboard, best and rating list, its ratings freeze, and each account that
    lost rating to it in the rated races of the last REFUND_WINDOW gets it back.

    Once, however many moderators press at the same moment: the account's row is locked
    first, so a second press waits for the first transaction and then finds the mark (the
    Mark's user is unique besides: an insert that got past the lock would fail), and does
    nothing more; the consequences are all in the transaction that made the mark. The lock
    also orders the mark with a game of the account that ends meanwhile (game_screen).
    """
    if get_user_model().objects.select_for_update().filter(pk=user_id).first() is None:
        raise ServiceError("not_found", "no such account")
    now = timezone.now()
    try:
        with transaction.atomic():
            mark = Mark.objects.create(user_id=user_id, by=by, created_at=now)
    except IntegrityError:
        return Marked(Mark.objects.get(user_id=user_id), new=False)
    Review.objects.filter(user_id=user_id, status=ReviewStatus.UNDER_REVIEW).update(
        status=ReviewStatus.CHEAT, decided_at=now, decided_by=by
    )
    # What the account itself reads (GET /api/me/ and every account_kind) says so too.
    Account.objects.update_or_create(user_id=user_id, defaults={"marked": True})
    account_scores_hold(user_id=user_id)
    refunds = ratings_settle_mark(
        cheater_id=user_id, since=now - REFUND_WINDOW, now=now, cap=REFUND_CAP
    )
    mark.refunded_accounts = len({refund.user_id for refund in refunds})
    mark.refunded_points = sum(refund.points for refund in refunds)
    mark.save(update_fields=["refunded_accounts", "refunded_points"])
    return Marked(mark, new=True)


@transaction.atomic
def report_create(
    *, reporter: Any, game_id: str, player_id: str, reason: str, address: str = ""
) -> Report:
    """An account reports a player's finished game: the game joins the review queue (screened
    now if it never was, so the moderator sees its figures; a report alone holds nothing).
    One report per account and game; REPORTS_PER_DAY in any REPORT_WINDOW per account, and
    REPORTS_PER_ADDRESS per client `address`."""
    if not Game.objects.filter(pk=game_id).exists():
        raise ServiceError("not_found", "no such game", "game")
    player = Player.objects.select_related("game").filter(pk=player_id, game_id=game_id).first()
    if player is None:
        raise ServiceError("not_found", "no such player in that game", "player")
    if player.game.status != GameStatus.FINISHED:
        raise ServiceError("not_finished", "a game can be reported once it is over")
    if player.user_id is not None and player.user_id == reporter.pk:
        raise ServiceError("invalid", "report another player, not yourself", "player")
    # One account's reports are counted one at a time: its row is the lock.
    get_user_model().objects.select_for_update().filter(pk=reporter.pk).first()
    if Report.objects.filter(reporter_id=reporter.pk, game_id=game_id).exists():
        raise ServiceError("already_reported", "you have reported this game already")
    now = timezone.now()
    _check_report_rate(Report.objects.filter(reporter_id=reporter.pk), REPORTS_PER_DAY, now)
    if address:
        # One address's reports are counted one at a time too: a lock on its name (PostgreSQL's
        # advisory lock, held until this transaction ends), so two accounts of one address
        # reporting at once on two workers count each other's.
        address_lock(f"reports:{address}")
        by_address = Report.objects.filter(address=address[:64])
        _check_report_rate(by_address, REPORTS_PER_ADDRESS, now)
    report = Report.objects.create(
        reporter_id=reporter.pk, game_id=game_id, player=player, reason=reason, created_at=now,
        address=address[:64],
    )  # fmt: skip
    if not Review.objects.filter(player=player).exists():
        _queue_unscreened(player, now)
    return report


def _queue_unscreened(player: Player, now: datetime) -> None:
    """A game that counted for nothing was never screened: screen it now for the moderator.
    Its row holds nothing (no status): a report alone keeps no game off a board."""
    found = _player_screen(game=player.game, player=player, counts=[], limits=thresholds())
    try:
        with transaction.atomic():
            Review.objects.create(
                game_id=player.game_id, player=player, user_id=player.user_id, counts=[],
                signals=found.signals, timing=found.timing.figures(), status=None,
                screened_at=now,
            )  # fmt: skip
    except IntegrityError:
        pass  # another account's report queued it at this moment: one row is enough


def _check_report_rate(reports: QuerySet[Report], limit: int, now: datetime) -> None:
    """`rate_limited` (with when the oldest counted report frees a place) once `reports` of the
    last REPORT_WINDOW reach `limit`."""
    recent = list(
        reports.filter(created_at__gt=now - REPORT_WINDOW)
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )
    if len(recent) < limit:
        return
    frees_at = recent[len(recent) - limit] + REPORT_WINDOW
    retry_after = max(1, math.ceil((frees_at - now).total_seconds()))
    raise ServiceError(
        "rate_limited",
        f"{limit} reports a day at most; try again in {retry_after} s",
        retry_after_s=retry_after,
    )
