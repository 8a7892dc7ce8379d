"""Persistence only: games, players, the append-only move log. Rules live in the engine,
use cases in each room's services (games/races, games/moves, ...)."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone


def new_public_id() -> str:
    """An opaque id of 12 URL-safe characters (72 random bits)."""
    return secrets.token_urlsafe(9)


class GameMode(models.TextChoices):
    SOLO = "solo"
    RACE = "race"


class GameStatus(models.TextChoices):
    LOBBY = "lobby"
    COUNTDOWN = "countdown"
    RUNNING = "running"
    FINISHED = "finished"


class PlayerStatus(models.TextChoices):
    JOINED = "joined"
    READY = "ready"
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    DNF = "dnf"


class Variant(models.TextChoices):
    """Kinds of board that leaderboards keep apart (docs/protocol.md 3)."""

    CLASSIC = "classic"
    NO_GUESS = "no_guess"


FINAL_PLAYER_STATUSES = (PlayerStatus.WON, PlayerStatus.LOST, PlayerStatus.DNF)


class Game(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_public_id, editable=False)
    mode = models.CharField(max_length=8, choices=GameMode.choices, default=GameMode.SOLO)
    preset = models.CharField(max_length=16, blank=True, default="")
    width = models.PositiveSmallIntegerField()
    height = models.PositiveSmallIntegerField()
    mines = models.PositiveIntegerField()
    max_players = models.PositiveSmallIntegerField(default=1)
    ranked = models.BooleanField(default=False)
    # A no-guess board (generator ng1, docs/protocol.md 1.8): v1 of `seed/ng/<ng_attempt>`. The
    # attempt is fixed with the safe cell (race: at creation; solo: at the first reveal).
    no_guess = models.BooleanField(default=False)
    # A quick-match race (docs/protocol.md 5): its accounts' ratings change when it ends.
    rated = models.BooleanField(default=False)
    # No-flag play (docs/protocol.md 9.1): a `flag` in it is refused with `no_flags`.
    no_flags = models.BooleanField(default=False, db_default=False)
    ng_attempt = models.PositiveIntegerField(null=True, blank=True)
    # The secret: never serialised before the game is finished.
    seed = models.CharField(max_length=256)
    seed_commitment = models.CharField(max_length=64)  # engine.commitment(seed, seed_salt)
    seed_salt = models.CharField(max_length=32, blank=True, default="")  # "" before v1.1
    # A board others still play (a daily challenge) keeps its secrets (seed, mines, move log,
    # analysis, spectators) past the game's end, until this moment; null: at the end.
    secrets_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=GameStatus.choices, default=GameStatus.LOBBY, db_index=True
    )
    # The cell the board was generated safe around (solo: first reveal; race: start cell).
    safe_x = models.PositiveSmallIntegerField(null=True, blank=True)
    safe_y = models.PositiveSmallIntegerField(null=True, blank=True)
    bbbv = models.PositiveIntegerField(null=True, blank=True)
    # Connected spectators, kept by the consumers (a killed worker can leave it high).
    spectators = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # The race a `rematch` created after this one (docs/protocol.md 2.1), made once.
    successor = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="predecessor"
    )
    # A race lobby: when a player last left it. A lobby nobody is in closes LOBBY_IDLE_S after
    # this, or after its creation if nobody ever joined (games.races.lobbies).
    last_leave_at = models.DateTimeField(null=True, blank=True)
    # The client address that created it over the API ("" for rematches and quick matches):
    # the limit of open lobbies per address counts these.
    creator_address = models.CharField(max_length=64, blank=True, default="")
    # A race lobby where two or more are ready and some are not: since when (the ready timeout).
    ready_since = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the race's ranking was decided (docs/protocol.md 2.2): its ratings applied and `decided`
    # sent, once. Null: not yet (or solo). The ranks fixed then, {player id: rank}, are kept
    # here, on the row the deciding transaction locks, not on the player rows (lock order).
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_places = models.JSONField(null=True, blank=True)
    # Who won the race, fixed when it was decided (docs/protocol.md 7's rule): the first, if it had
    # cleared its board or was still playing while every other racer had lost or left. Empty:
    # nobody won (the first lost too, or the time limit ended the race), or not decided yet.
    race_winner = models.CharField(max_length=32, blank=True, default="")
    # The one racer still playing in a race not yet decided because of it: its moves that open
    # cells ask again (games.races.deciding), read by the move's own write at no extra query.
    deciding_racer = models.CharField(max_length=32, blank=True, default="")
    # Why a race changes no rating and scores no points although it was played for them
    # (docs/protocol.md 6.2), judged once when it is decided: "no_moves" (nobody moved) or
    # "left_early" (a racer resigned or was dropped before 3 moves that changed its board).
    # Empty: not aborted (or not judged: a race that counts for nothing).
    aborted_because = models.CharField(max_length=16, blank=True, default="", db_default="")
    # Why a race a pairing made is not rated although it would have been (docs/protocol.md 6.2):
    # "pair_daily_cap" (two of its accounts had their day's rated races already). Said before
    # the race starts, in its public state.
    unrated_because = models.CharField(max_length=16, blank=True, default="", db_default="")
    # The match that made this race (docs/protocol.md 9.4), "" for any other game: its public
    # state then says the match's score (games.races.extensions.state_facts).
    match_key = models.CharField(max_length=32, blank=True, default="", db_default="")

    class Meta:
        indexes = [models.Index(fields=["mode", "status", "-created_at"])]
        # Staff who hold it are moderators: the fair-play review queue in the admin
        # (games.fairplay.admin, docs/protocol.md 6.4).
        # Those who hold confirm_record confirm record candidates (games.records.admin, 9.3).
        permissions = [
            ("review_game", "Can review games screened for fair play"),
            ("confirm_record", "Can confirm record candidates as records"),
        ]

    def __str__(self) -> str:
        return f"{self.mode} {self.id} ({self.width}x{self.height}/{self.mines}, {self.status})"

    @property
    def safe_cell(self) -> tuple[int, int] | None:
        if self.safe_x is None or self.safe_y is None:
            return None
        return (self.safe_x, self.safe_y)

    def secrets_open(self, now: datetime | None = None) -> bool:
        """May the seed, the mines, the move log and the analysis be shown now?"""
        if self.status != GameStatus.FINISHED:
            return False
        return self.secrets_at is None or (now or timezone.now()) >= self.secrets_at

    @property
    def variant(self) -> str:
        return Variant.NO_GUESS if self.no_guess else Variant.CLASSIC


class Player(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_public_id, editable=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=64)
    name_key = models.CharField(max_length=256)  # games.names.name_skeleton: unique in a game
    token_hash = models.CharField(max_length=64, unique=True)  # SHA-256 of the resume token
    # The account a logged-in player plays under (its username is the name); null for guests.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    status = models.CharField(
        max_length=16, choices=PlayerStatus.choices, default=PlayerStatus.JOINED
    )
    # A bot (games.bots) plays this seat: never rated, never on a leaderboard.
    is_bot = models.BooleanField(default=False)
    # A bot account plays this seat (docs/protocol.md 6.1; the server's own bots too), fixed at the
    # join: an account turns into a bot account only before it has played, never back.
    bot = models.BooleanField(default=False)
    # SHA-256 of the browser session that joined (empty if none): with `user`, how a racer is
    # recognised when it asks to watch its own race (races.lifecycle.spectator_check).
    session_hash = models.CharField(max_length=64, blank=True, default="")
    snapshot = models.BinaryField(default=b"")  # engine.codec v1 of the sweep's cell states
    moves_count = models.PositiveIntegerField(default=0)  # seq of the last move
    revealed = models.PositiveIntegerField(default=0)
    flags = models.PositiveIntegerField(default=0)
    clicks = models.PositiveIntegerField(default=0)
    time_ms = models.PositiveIntegerField(null=True, blank=True)
    # dnf by its own resignation or dropped for being away (ABANDON_S): it ranks below every
    # racer who did neither, so leaving is a loss (docs/protocol.md 2, v1.2).
    resigned = models.BooleanField(default=False)
    # Berserk (docs/protocol.md 7): chosen during a tournament race's countdown; it plays without
    # flags, and a win earns one more point.
    berserk = models.BooleanField(default=False)
    # Won without ever placing a flag (docs/protocol.md 9.1), whatever the game's setting; set
    # when the player wins, in the move's transaction. False for every other status.
    nf = models.BooleanField(default=False, db_default=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "name_key"], name="unique_player_name_in_game")
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.game_id} ({self.status})"


class Move(models.Model):
    """One accepted move, in the order the server accepted it; never updated or deleted."""

    # Every move updates each index of this table, so it has only the ones its reads use:
    # (player, seq) for uniqueness, (game, id) for a game's log in order.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="moves", db_index=False
    )
    seq = models.PositiveIntegerField()
    action = models.CharField(max_length=8)
    x = models.PositiveSmallIntegerField()
    y = models.PositiveSmallIntegerField()
    t_ms = models.PositiveIntegerField()  # since the player's clock start, 0 before it
    created_at = models.DateTimeField(auto_now_add=True)
    # When the server read the move's frame from the connection, before any queue of its own
    # (games.edge.receive_stamp): what the fair-play screen times (docs/protocol.md 6.3). Null
    # for moves stored before it was kept (the screen then reads created_at).
    received_at = models.DateTimeField(null=True, blank=True)
    # The client's optional idempotency key: a move resent with it is answered as the first
    # was and applied once, on any worker (games/moves/repeats.py).
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "seq"], name="unique_move_seq_per_player"),
            # Partial: only keyed moves are in it, so unkeyed ones pay no index for it.
            models.UniqueConstraint(
                fields=["player", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="unique_move_key_per_player",
            ),
        ]
        indexes = [models.Index(fields=["game", "id"], name="move_log_of_game")]

    def __str__(self) -> str:
        return f"{self.player_id}#{self.seq} {self.action} ({self.x}, {self.y})"


class Score(models.Model):
    """One player's result in a finished ranked game, written when the player finishes."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scores")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="score")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    name = models.CharField(max_length=64)
    name_key = models.CharField(max_length=256)  # games.names.name_skeleton
    # Played by an account (its username is the name). Leaderboards keep one row per name and
    # per kind, so a guest's entry never replaces or hides an account's, whatever the names.
    verified = models.BooleanField(default=False)
    preset = models.CharField(max_length=16)
    variant = models.CharField(max_length=16, choices=Variant.choices, default=Variant.CLASSIC)
    mode = models.CharField(max_length=8, choices=GameMode.choices)
    status = models.CharField(max_length=16, choices=PlayerStatus.choices)
    time_ms = models.PositiveIntegerField(null=True, blank=True)
    bbbv = models.PositiveIntegerField()
    bbbv_per_s = models.FloatField(null=True, blank=True)
    clicks = models.PositiveIntegerField()
    efficiency = models.FloatField(null=True, blank=True)
    finished_at = models.DateTimeField()
    # Off every leaderboard, personal best and player page while its game is under review
    # (games.fairplay); released when cleared, it counts as if it had never waited.
    held = models.BooleanField(default=False)
    # A win without a flag (the player's `nf`, docs/protocol.md 9.1): it counts in the NF style.
    nf = models.BooleanField(default=False, db_default=False)

    class Meta:
        indexes = [
            # leaderboards of a period: the won scores of a preset since a moment
            models.Index(
                fields=["preset", "variant", "status", "finished_at"], name="score_period_variant"
            ),
            # a player's page: their scores, newest first
            models.Index(fields=["name_key", "-finished_at"], name="score_by_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.preset} {self.status} {self.time_ms} ms"


class BestKind(models.TextChoices):
    TIME = "time"
    BBBV_PER_S = "bbbv_per_s"


class Style(models.TextChoices):
    """Which wins a board or a best counts (docs/protocol.md 9.2): all, or NF wins only."""

    ALL = "all"
    NF = "nf"


class PersonalBest(models.Model):
    """The best won score of each name per preset and ranking: the all-time leaderboards read
    this table (one row per name, already in order) instead of grouping a million scores."""

    preset = models.CharField(max_length=16)
    variant = models.CharField(max_length=16, choices=Variant.choices, default=Variant.CLASSIC)
    kind = models.CharField(max_length=16, choices=BestKind.choices)
    # "nf": the best among the name's NF wins only (docs/protocol.md 9.2); an NF win offers both.
    style = models.CharField(
        max_length=8, choices=Style.choices, default=Style.ALL, db_default=Style.ALL
    )
    name_key = models.CharField(max_length=256)
    verified = models.BooleanField(default=False)  # the score's: an account's best, or a guest's
    score = models.ForeignKey(Score, on_delete=models.CASCADE, related_name="+")
    sort_value = models.FloatField()  # lower is better: time_ms, or -bbbv_per_s
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["preset", "variant", "style", "kind", "name_key", "verified"],
                name="one_best_per_name_kind_style",
            )
        ]
        indexes = [
            models.Index(
                fields=["preset", "variant", "style", "kind", "sort_value", "finished_at"],
                name="best_order_style",
            )
        ]

    def __str__(self) -> str:
        return f"{self.preset} {self.kind} {self.name_key}: {self.sort_value}"


class SumBest(models.Model):
    """An account's sum of bests (docs/protocol.md 9.2): its best times on beginner,
    intermediate and expert added up, per kind of board and style, kept whenever one of those
    bests changes, so the all-time sum board is an index walk. Only accounts (verified scores)
    that have all three; held scores never offer the bests it is made of."""

    variant = models.CharField(max_length=16, choices=Variant.choices)
    style = models.CharField(max_length=8, choices=Style.choices)
    name_key = models.CharField(max_length=256)
    name = models.CharField(max_length=64)
    sum_ms = models.PositiveIntegerField()
    reached_at = models.DateTimeField()  # the latest of its three parts' finishes
    beginner = models.ForeignKey(Score, on_delete=models.CASCADE, related_name="+")
    intermediate = models.ForeignKey(Score, on_delete=models.CASCADE, related_name="+")
    expert = models.ForeignKey(Score, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "style", "name_key"], name="one_sum_per_account"
            )
        ]
        indexes = [
            models.Index(
                fields=["variant", "style", "sum_ms", "reached_at", "name_key"], name="sum_order"
            )
        ]

    def __str__(self) -> str:
        return f"{self.variant} {self.style} {self.name}: {self.sum_ms} ms"


class OutboxEvent(models.Model):
    """A committed event the channel layer refused (Redis down): kept until a worker's relay
    publishes it. `claimed_until` is a lease, so a relay killed mid-publish loses nothing."""

    game_id = models.CharField(max_length=32)
    message = models.JSONField()  # the channel-layer message, as games.events.delivery builds it
    # The layer id of the worker whose own members already had the event (its publish failed
    # after delivering it there), which the re-send skips; "" when nobody had it.
    delivered_on = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"outbox #{self.id} {self.message.get('kind')} for {self.game_id}"


class SweepSnapshot(models.Model):
    """A player's knowledge after every SNAPSHOT_EVERY-th move (engine.codec bytes), so a late
    spectator's view of a running race replays a few moves, not the whole log."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    state = models.BinaryField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "seq"], name="one_snapshot_per_seq")
        ]

    def __str__(self) -> str:
        return f"{self.player_id}@{self.seq}"
