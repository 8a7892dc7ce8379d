"""Rating a finished rated race, in the transaction that finishes it.

Every account's rating for the race's preset and variant is updated from the race's ranking
(ties share a rank) with OpenSkill's Plackett-Luce model; a guest takes part at the default
rating and keeps nothing. The change is written per player, so game_over, the results page and
the player's history all read the same numbers. A marked account's ratings are frozen
(games.fairplay) and it is left out of any race rated after its mark: the others are rated among
themselves, by their own order, so nobody loses rating to a known cheater that no refund would
give back (refunds cover only races that ended before the mark).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Game, Player
from games.ratings.buckets import Moves, ladder_buckets_apply
from games.ratings.leagues import league_change
from games.ratings.models import Rating, RatingChange
from games.ratings.scale import display, provisional
from games.ratings.seasons import season_count, season_current

MODEL = PlackettLuce()
# A rated race's result for a player it has no change for.
NO_RATING_CHANGE: dict[str, Any] = {
    "rating_before": None, "rating_after": None, "provisional": None,
    "league_before": None, "league": None, "league_change": None,
}  # fmt: skip


def race_rate(
    *,
    game: Game,
    players: list[Player],
    ranks: dict[str, int],
    now: datetime | None = None,
    played: bool = True,
) -> None:
    """Update the ratings of a rated race's accounts; `ranks` is the ranking by player id,
    `now` the moment the race is rated (default: its end, else the clock), which chooses the
    season it counts in (docs/protocol.md 8).

    A race in which no racer made a move is not rated (docs/protocol.md 6.2): each account's result
    shows its rating unchanged, and no rating moves. Nor is one the caller says was not played
    (`played=False`: a matched player never came)."""
    if not played or not any(p.moves_count > 0 for p in players):
        _race_not_played(game=game, players=players)
        return
    now = now or game.finished_at or timezone.now()
    # Before any rating row is locked: a new season's soft reset locks them all.
    season = season_current(now=now)
    moves = Moves()  # the accounts' moves on the season's ladder, applied at the end
    variant = game.variant
    rows: dict[str, Rating | None] = {}
    # Rows are locked in the order of their accounts, as a mark's refunds lock them
    # (games.ratings.refunds), so the two can never wait for each other.
    for player in sorted(players, key=lambda p: p.user_id or 0):
        if player.user_id is None or player.bot:  # a bot account keeps no rating, as a guest
            rows[player.id] = None
            continue
        row, _ = Rating.objects.select_for_update().get_or_create(
            user_id=player.user_id,
            preset=game.preset,
            variant=variant,
            defaults={
                "mu": MODEL.mu,
                "sigma": MODEL.sigma,
                "display": display(MODEL.mu, MODEL.sigma),
            },
        )
        rows[player.id] = row
    cheaters = [p for p in players if rows[p.id] is not None and rows[p.id].frozen]
    others = [p for p in players if p not in cheaters]
    if cheaters and len(others) < 2:  # nobody left to rate against
        _race_not_played(game=game, players=players)
        return
    teams = [
        [MODEL.rating(mu=row.mu, sigma=row.sigma) if row else MODEL.rating()]
        for row in (rows[p.id] for p in others)
    ]
    rated = dict(
        zip(
            (p.id for p in others),
            MODEL.rate(teams, ranks=[ranks[p.id] for p in others]),
            strict=True,
        )
    )
    for player in players:
        row = rows[player.id]
        before = after = None
        leagues = ("", "")
        if row is not None:
            before = after = row.display
        if row is not None and player.id in rated:
            [new] = rated[player.id]
            row.mu, row.sigma = new.mu, new.sigma
            row.display = after = display(new.mu, new.sigma)
            row.games += 1
            row.rated_at = now
            row.save(update_fields=["mu", "sigma", "display", "games", "rated_at", "updated_at"])
            leagues = season_count(
                season=season, user_id=row.user_id, preset=row.preset, variant=variant,
                won=ranks[player.id] == 1, rating=row.display, games=row.games, now=now,
                moves=moves,
            )  # fmt: skip
        RatingChange.objects.create(
            game=game, player=player, user_id=player.user_id, preset=game.preset,
            variant=variant, before=before, after=after, rank=ranks[player.id],
            league_before=leagues[0], league_after=leagues[1],
            games=row.games if row is not None else None, created_at=now,
        )  # fmt: skip
    ladder_buckets_apply(moves)


def _race_not_played(*, game: Game, players: list[Player]) -> None:
    shown = {
        r.user_id: (r.display, r.games)
        for r in Rating.objects.filter(
            user_id__in=[p.user_id for p in players if p.user_id is not None],
            preset=game.preset,
            variant=game.variant,
        )
    }
    default = (display(MODEL.mu, MODEL.sigma), 0)
    for player in players:
        rating, games = (
            (None, None) if player.user_id is None else shown.get(player.user_id, default)
        )
        RatingChange.objects.create(
            game=game, player=player, user_id=player.user_id, preset=game.preset,
            variant=game.variant, before=rating, after=rating, counted=False, games=games,
        )  # fmt: skip


def changes_of(*, game: Game) -> dict[str, dict[str, Any]]:
    """Per player id of a rated race: rating_before and rating_after (null for guests), and
    (docs/protocol.md 8) whether the rating is provisional after it, the league in the race's season
    before and after it, and "promotion" or "demotion" between them (null: neither)."""
    return {c.player_id: _change_view(c) for c in RatingChange.objects.filter(game=game)}


def _change_view(change: RatingChange) -> dict[str, Any]:
    before, after = change.league_before or None, change.league_after or None
    return {
        "rating_before": change.before,
        "rating_after": change.after,
        # As it was after the race, so a later GET says what game_over said.
        "provisional": None if change.games is None else provisional(change.games),
        "league_before": before,
        "league": after,
        "league_change": league_change(before, after),
    }
