"""A tournament race's points, written in the transaction that decides the race (docs/protocol.md
2.2; a hook of games.races.deciding registered by apps.py): a worker killed after that commit
loses none, and one killed before it commits nothing, so the verdict and its points are never
apart. Its racers are free to be paired again from then on, the one still playing too (a
pairing resigns its decided race for it).

The rules are scoring.race_awards, a pure function of the ranking; this applies them to the
entries and frees both racers to be paired again.
"""

from __future__ import annotations

from datetime import datetime

from games.events.event import Event
from games.models import Game, PlayerStatus
from games.presence.models import PlayerPresence
from games.races.aborting import race_aborted
from games.races.results import Placed
from games.tournaments.models import ArenaRace, Entry
from games.tournaments.scoring import Award, Racer, race_awards


def is_arena_race(game: Game) -> bool:
    """Was this race made by a tournament (berserk allowed, screened as counted)?"""
    return ArenaRace.objects.filter(game_id=game.id).exists()


def race_points_write(game: Game, placed: list[Placed], now: datetime) -> list[Event]:
    """Score a tournament race once, from its ranking at the decided moment; a race decided at
    or after the tournament's end counts for nothing (docs/protocol.md 7)."""
    race = (
        ArenaRace.objects.select_for_update()
        .select_related("tournament")
        .filter(game_id=game.id, scored=False)
        .first()
    )
    if race is None:
        return []
    entries = {
        e.user_id: e
        for e in Entry.objects.select_for_update().filter(
            tournament_id=race.tournament_id, game_id=game.id
        )
    }
    racers = [
        Racer(
            key=entries[p.player.user_id].id,
            status=p.player.status,
            left=p.player.resigned,
            time_ms=p.player.time_ms,
            moves=p.player.moves_count,
            berserk=p.player.berserk,
            streak=entries[p.player.user_id].streak,
        )
        for p in placed
        if p.player.user_id in entries
    ]
    # Past the end, or aborted (one click and a resignation, docs/protocol.md 6.2): no points.
    # Nor past the pair's races for points in this tournament (6.2, said when it was paired).
    counts = now < race.tournament.ends_at and race.points and not race_aborted(game)
    awards = race_awards(racers) if counts else None
    away = _dropped_for_absence(placed)
    for entry in entries.values():
        if awards is not None and entry.id in awards:
            _apply(entry, awards[entry.id])
        # A racer dropped for being away has left the arena too (docs/protocol.md 7).
        entry.withdrawn = entry.withdrawn or entry.user_id in away
        entry.game_id, entry.paired, entry.updated_at = "", None, now
        entry.save()
    race.scored = True
    race.save(update_fields=["scored"])
    return []


def _apply(entry: Entry, award: Award) -> None:
    entry.points += award.points
    entry.races += 1
    entry.wins += award.won
    entry.streak = award.streak
    entry.berserk_wins += award.berserk_win
    entry.win_time_ms += award.win_time_ms


def _dropped_for_absence(placed: list[Placed]) -> set[int]:
    """Accounts that were dnf for being away (ABANDON_S): resigned while offline. A racer who
    resigns with the page open stays in the arena."""
    resigned = {
        p.player.id: p.player.user_id
        for p in placed
        if p.player.status == PlayerStatus.DNF and p.player.resigned
    }
    offline = PlayerPresence.objects.filter(player_id__in=list(resigned), online=False)
    return {resigned[player_id] for player_id in offline.values_list("player_id", flat=True)}
