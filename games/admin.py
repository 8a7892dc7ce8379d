"""Moderation: games with their players and move log, scores that can be removed.

A finished game's facts (its board, status, players' results and scores) are the record the
leaderboards and replays stand on: the admin shows them but never changes them. Removing a
score, or a whole game, stays possible as before.
"""

from django.contrib import admin
from django.http import HttpRequest

from games.models import Game, GameStatus, Move, Player, Score
from games.scores.records import score_remove


def is_finished(game: Game | None) -> bool:
    return game is not None and game.status == GameStatus.FINISHED


class FinishedGameReadOnly:
    """An object of a finished game opens read-only: values as text, a POST refused (403)."""

    def game_of(self, obj) -> Game | None:
        return obj.game

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        if obj is not None and is_finished(self.game_of(obj)):
            return False
        return super().has_change_permission(request, obj)


class NothingAddedToFinished:
    """An inline of a finished game's page offers no row to add."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return not is_finished(obj) and super().has_add_permission(request, obj)


class PlayerInline(NothingAddedToFinished, admin.TabularInline):
    model = Player
    fields = ("name", "status", "revealed", "flags", "clicks", "time_ms", "user")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


class MoveInline(NothingAddedToFinished, admin.TabularInline):
    model = Move
    fields = ("player", "seq", "action", "x", "y", "t_ms", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("id",)


@admin.register(Game)
class GameAdmin(FinishedGameReadOnly, admin.ModelAdmin):
    list_display = ("id", "mode", "preset", "width", "height", "mines", "status", "ranked",
                    "no_guess", "created_at")  # fmt: skip
    list_filter = ("mode", "preset", "status", "ranked", "no_guess")
    search_fields = ("id", "players__name")
    readonly_fields = ("seed", "seed_commitment", "ng_attempt", "safe_x", "safe_y", "bbbv",
                       "created_at", "starts_at", "started_at", "finished_at")  # fmt: skip
    inlines = [PlayerInline, MoveInline]
    date_hierarchy = "created_at"

    def game_of(self, obj: Game) -> Game:
        return obj


@admin.register(Player)
class PlayerAdmin(FinishedGameReadOnly, admin.ModelAdmin):
    list_display = ("name", "game", "status", "revealed", "clicks", "time_ms", "user", "joined_at")
    list_filter = ("status", "game__mode", "game__preset")
    search_fields = ("name", "game__id", "user__username")
    exclude = ("token_hash", "snapshot")
    raw_id_fields = ("game", "user")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "player", "seq", "action", "x", "y", "t_ms", "created_at")
    list_filter = ("action",)
    search_fields = ("game__id", "player__name")
    raw_id_fields = ("game", "player")

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the move log is append-only


@admin.register(Score)
class ScoreAdmin(FinishedGameReadOnly, admin.ModelAdmin):
    list_display = ("name", "preset", "mode", "status", "time_ms", "bbbv_per_s", "clicks",
                    "user", "finished_at")  # fmt: skip
    list_filter = ("preset", "status", "mode")
    search_fields = ("name", "game__id")
    raw_id_fields = ("game", "player", "user")

    # Deleting (one, or "delete selected") goes through the service, so bests are recomputed.
    def delete_model(self, request, obj) -> None:
        score_remove(score_id=obj.pk)

    def delete_queryset(self, request, queryset) -> None:
        for score_id in queryset.values_list("id", flat=True):
            score_remove(score_id=score_id)
