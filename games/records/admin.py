"""The confirmers' pages in the admin (docs/protocol.md 9.3): the record candidates, with the
action that confirms them, and the confirmed records. Only staff holding
`games.confirm_record` see them or act (a moderator of fair play without it gets a 403); nobody
edits a row by hand: a confirmation goes through `record_confirm`."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.errors import ServiceError
from games.fairplay.admin import lines_html, signal_lines
from games.fairplay.models import ReviewStatus
from games.ops.admin_access import ReadOnlyForPermission
from games.records.models import Record, RecordCandidate
from games.records.services import record_confirm
from games.timefmt import iso

PERMISSION = "games.confirm_record"


class ConfirmersOnly(ReadOnlyForPermission):
    """Seen by confirmers, changed by nobody."""

    permission = PERMISSION

    def has_confirm_permission(self, request: HttpRequest) -> bool:
        return self.allows(request)


@admin.register(RecordCandidate)
class RecordCandidateAdmin(ConfirmersOnly, admin.ModelAdmin):
    list_display = ("game_id", "player_name", "result", "signals_shown", "screened_at", "replay")
    actions = ["confirm"]
    list_per_page = 50

    def get_queryset(self, request: HttpRequest) -> QuerySet[RecordCandidate]:
        under_review = RecordCandidate.objects.filter(status=ReviewStatus.UNDER_REVIEW)
        candidates = under_review.filter(signals__has_key="record")
        return candidates.select_related("game", "player").order_by("screened_at")

    @admin.display(description="player")
    def player_name(self, candidate: RecordCandidate) -> str:
        return candidate.player.name

    @admin.display(description="result")
    def result(self, candidate: RecordCandidate) -> str:
        game, player = candidate.game, candidate.player
        nf = ", NF" if player.nf else ""
        return f"{game.preset} {game.variant}{nf}: {player.time_ms} ms"

    @admin.display(description="signals")
    def signals_shown(self, candidate: RecordCandidate) -> Any:
        return lines_html(signal_lines(candidate.signals))

    @admin.display(description="see")
    def replay(self, candidate: RecordCandidate) -> SafeString:
        path = f"/games/{quote(candidate.game_id, safe='')}/replay/"
        return format_html('<a href="{}" class="replay-link">Replay</a>', path)

    @admin.action(description="Confirm the selected games as records", permissions=["confirm"])
    def confirm(self, request: HttpRequest, queryset: QuerySet[RecordCandidate]) -> None:
        for review_id in queryset.values_list("id", flat=True):
            try:
                confirmed = record_confirm(review_id=review_id, by=request.user)
            except ServiceError as refused:
                self.message_user(request, f"#{review_id}: {refused.message}", messages.ERROR)
                continue
            styles = " and ".join(record.style for record in confirmed.records)
            said = "Confirmed" if confirmed.new else "Confirmed already"
            self.message_user(request, f"#{review_id}: {said} ({styles}).", messages.SUCCESS)


@admin.register(Record)
class RecordAdmin(ConfirmersOnly, admin.ModelAdmin):
    list_display = ("preset", "variant", "style", "name", "time_ms", "set_at", "confirmed",
                    "confirmed_by")  # fmt: skip
    list_filter = ("preset", "variant", "style")
    ordering = ("-confirmed_at",)
    exclude = ("kit",)

    @admin.display(description="confirmed at")
    def confirmed(self, record: Record) -> str | None:
        return iso(record.confirmed_at)
