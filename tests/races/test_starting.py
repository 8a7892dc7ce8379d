"""Races made many at once (games.races.starting) leave what the one-by-one way leaves:
lifecycle's game_create, each entrant's player_join, its presence row, the bot's seat, then
every player_ready (the last one beginning the countdown), as quick match's race_start did
before. Compared row by row and field by field, with the same secrets drawn on both sides.
Both build their rows by games.races.seating's rules; what this checks is how starting puts
them together (the readies in order, the bulk writes, the state built from rows in hand)."""

from __future__ import annotations

import itertools
import secrets
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.accounts.models import Account
from games.bots.models import BotSeat
from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import Game, Player
from games.presence.models import PlayerPresence
from games.races import lifecycle, selectors
from games.races.spec import GameSpec
from games.races.starting import Entrant, Lineup, races_start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def same_secrets(monkeypatch):
    """Call it before each side: both then draw the same seeds and salts (ids and resume
    tokens stay random: they are unique)."""
    counter = [itertools.count()]

    def drawn(size: int = 32) -> str:
        return f"{next(counter[0]):06d}".rjust(size * 2, "a")

    monkeypatch.setattr(secrets, "token_hex", drawn)
    return lambda: counter.__setitem__(0, itertools.count())


def one_by_one(preset, no_guess, entrants, now, bot=None):
    """The way races were started before, one transaction of single-row use cases."""
    width, height, mines = PRESETS[preset]
    spec = GameSpec(
        mode="race", preset=preset, width=width, height=height, mines=mines,
        max_players=len(entrants) + (bot is not None), seed=None, no_guess=no_guess,
    )  # fmt: skip
    with transaction.atomic():
        game = lifecycle.game_create(spec=spec)
        Game.objects.filter(pk=game.pk).update(rated=bot is None)
        joined = []
        for entrant in entrants:
            for suffix in ("", " 2", " 3"):
                try:
                    with transaction.atomic():
                        name = entrant.name + suffix
                        seat = lifecycle.player_join(game_id=game.id, name=name, user=entrant.user)
                        joined.append(seat)
                    break
                except ServiceError as exc:
                    if exc.code != "name_taken" or entrant.user is not None:
                        raise
        if bot is not None:
            lifecycle.bot_join(game=game, level=bot)
        for entry in joined:
            PlayerPresence.objects.create(
                player=entry.player, game_id=game.id, online=False, since=now
            )
        for entry in joined:
            lifecycle.player_ready(player_id=entry.player.id)
        return selectors.game_state(game_id=game.id), joined


GAME_TIMES = {"created_at", "starts_at", "ready_since"}


def rows_of(game_id: str, now) -> dict:
    """Every row the start wrote for this game, ids and moments replaced by what must hold."""
    game = Game.objects.get(pk=game_id)
    fields = {
        f.attname: getattr(game, f.attname)
        for f in Game._meta.concrete_fields
        if f.attname != "id" and f.attname not in GAME_TIMES
    }
    fields["countdown_ms"] = round((game.starts_at - timezone.now()).total_seconds() * 1000, -3)
    fields["ready_since"] = game.ready_since is not None
    players = []
    for p in Player.objects.filter(game_id=game_id).order_by("joined_at", "id"):
        row = {f.attname: getattr(p, f.attname) for f in Player._meta.concrete_fields}
        for moving in ("id", "game_id", "joined_at", "token_hash"):
            row.pop(moving)
        presence = PlayerPresence.objects.filter(player=p).first()
        row["presence"] = presence and (
            presence.game_id == game_id, presence.online, presence.since == now,
            presence.announced, presence.came_at,
        )  # fmt: skip
        seat = BotSeat.objects.filter(player=p).first()
        row["seat"] = seat and (seat.game_id == game_id, seat.level, seat.worker, seat.done)
        players.append(row)
    return {"game": fields, "players": players}


def public(state: dict) -> dict:
    """The state with its ids and moments left out (the rest must be equal)."""
    moments = {"id", "page", "ws", "created_at", "starts_at"}
    out = {k: v for k, v in state.items() if k not in moments}
    out["players"] = [{k: v for k, v in p.items() if k != "id"} for p in state["players"]]
    return out


def account(name: str):
    return get_user_model().objects.create_user(name)


CASES = {
    "two accounts": ("beginner", False, ["ann", "bea"], [], None),
    "three accounts, no guess": ("intermediate", True, ["ann", "bea", "cid"], [], None),
    "a guest and a bot": ("beginner", False, [], ["Zed"], "steady"),
    "two guests of one name": ("expert", False, [], ["Zed", "Zed"], None),
}


@pytest.mark.parametrize("case", CASES)
def test_a_race_made_at_once_is_the_race_made_one_step_at_a_time(case, same_secrets):
    preset, no_guess, names, guests, bot = CASES[case]
    entrants = [Entrant(n, account(n)) for n in names] + [Entrant(g) for g in guests]
    now = timezone.now()
    same_secrets()
    state, seats = one_by_one(preset, no_guess, entrants, now, bot)
    same_secrets()
    (started,) = races_start(
        preset=preset, no_guess=no_guess, lineups=[Lineup(entrants, bot)], now=now
    )
    assert rows_of(started.state["id"], now) == rows_of(state["id"], now)
    assert public(started.state) == public(state)
    assert public(selectors.game_state(game_id=started.state["id"])) == public(state)
    for seat in started.seats:  # each entrant's token resumes its own seat
        resumed = lifecycle.player_resume(game_id=started.state["id"], token=seat.token)
        assert resumed.id == seat.player.id
    assert [s.player.name for s in started.seats] == [s.player.name for s in seats]
    assert [e.payload["player"]["name"] for s in started.seats for e in s.events] == [
        e.payload["player"]["name"] for s in seats for e in s.events
    ]
    if names:  # each account's row exists, and is no bot's
        assert set(Account.objects.filter(user__username__in=names).values_list("bot")) == {
            (False,)
        }


def test_many_races_at_once_each_as_if_alone_and_a_refused_one_makes_nothing():
    users = [account(n) for n in ("ann", "bea", "cid", "dan")]
    Account.objects.create(user=users[3], bot=True)  # a bot account: its race is not rated
    now = timezone.now()
    taken = Entrant("ann", users[0])
    made = races_start(
        preset="beginner", no_guess=False, now=now,
        lineups=[Lineup([taken, Entrant("bea", users[1])]),
                 Lineup([taken, Entrant("ann again", users[0])]),  # one account twice
                 Lineup([Entrant("cid", users[2]), Entrant("dan", users[3])])],
    )  # fmt: skip
    first, refused, with_bot = made
    assert isinstance(refused, ServiceError) and refused.code == "name_taken"
    assert Game.objects.count() == 2 and Player.objects.count() == 4
    assert (first.state["rated"], first.state["ranked"]) == (True, True)
    assert (with_bot.state["rated"], with_bot.state["ranked"]) == (False, False)
    assert [p["bot"] for p in with_bot.state["players"]] == [False, True]
    for race in (first, with_bot):
        game = Game.objects.get(pk=race.state["id"])
        assert game.status == "countdown" and game.starts_at > now - timedelta(seconds=1)
        assert race.state["status"] == "countdown" and race.state["start"] == [
            game.safe_x,
            game.safe_y,
        ]
        tokens = {lifecycle.player_resume(game_id=game.id, token=s.token).id for s in race.seats}
        assert tokens == {s.player.id for s in race.seats}
