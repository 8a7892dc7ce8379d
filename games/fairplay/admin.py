"""The moderators' review queue in the admin (docs/protocol.md 6.4).

Only staff holding `games.review_game` see it or act in it: every permission of these pages is
that one, so a staff member without it gets nothing (a 403 on a POST, which changes nothing).
The queue is read-only; its two decisions are actions that call the services, `review_clear`
and `account_mark` (this one after a confirmation page: a mark is for good).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst

from games.errors import ServiceError
from games.fairplay.models import Mark, Report, Review
from games.fairplay.selectors import review_queue
from games.fairplay.services import account_mark, review_clear_window
from games.ops.admin_access import ReadOnlyForPermission

PERMISSION = "games.review_game"


class ModeratorsOnly(ReadOnlyForPermission):
    """Seen by moderators, changed by nobody: decisions go through the services."""

    permission = PERMISSION

    def has_review_permission(self, request: HttpRequest) -> bool:
        return self.allows(request)


# How each signal's figures read to a moderator (games.fairplay.screening); another signal is
# shown as its raw figures.
SIGNAL_TEXT = {
    "pace": "{bbbv_per_s} 3BV/s, above the ceiling of {ceiling}",
    "reaction": "median {median_ms} ms between moves, below {floor_ms} ms (window of "
    "{window}: {size} intervals, {reached} earlier game(s))",
    "metronome": "spread {spread} (1.4826 x MAD / median {median_ms} ms), below {floor} "
    "(window of {window}: {size} intervals, {reached} earlier game(s))",
    "record": "{time_ms} ms would beat the record of {leader_time_ms} ms ({entries} on the board)",
}


def signal_lines(signals: dict[str, dict[str, Any]]) -> list[str]:
    """One line per signal that fired: its name and its figures in words."""
    lines = []
    for name, figures in signals.items():
        try:
            text = SIGNAL_TEXT[name].format(**figures, reached=len(figures.get("games", ())))
        except (KeyError, IndexError):
            text = ", ".join(f"{key} {value}" for key, value in figures.items())
        lines.append(f"{name}: {text}")
    return lines


def lines_html(lines: Iterable[str]) -> SafeString:
    return format_html_join("", "<div>{}</div>", ((line,) for line in lines))


@admin.register(Review)
class ReviewAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("game_shown", "player_shown", "signals_shown", "window_shown",
                    "reports_shown", "screened_at", "status_shown", "links")  # fmt: skip
    list_display_links = ("player_shown",)
    actions = ["clear", "mark"]
    fields = ("game_shown", "player_shown", "account", "counts_shown", "status_shown",
              "signals_shown", "window_shown", "timing_shown", "reports_list", "screened_at",
              "decided_at", "decided_by", "links")  # fmt: skip
    readonly_fields = fields
    list_per_page = 50

    def get_queryset(self, request: HttpRequest) -> QuerySet[Review]:
        return review_queue().select_related("game", "player", "user", "decided_by", "window__game")

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        title = "Review queue: games under review and reported games, oldest first"
        return super().changelist_view(request, {"title": title, **(extra_context or {})})

    @admin.display(description="game")
    def game_shown(self, review: Review) -> str:
        game = review.game
        return f"{game.id} ({game.mode}, {game.preset or 'custom'})"

    @admin.display(description="player")
    def player_shown(self, review: Review) -> str:
        suffix = "" if review.user_id else " (guest)"
        return f"{review.player.name}{suffix}"

    @admin.display(description="account")
    def account(self, review: Review) -> str:
        return review.user.get_username() if review.user else "guest: no account to mark"

    @admin.display(description="counted for")
    def counts_shown(self, review: Review) -> str:
        return ", ".join(review.counts) or "nothing (queued by a report)"

    @admin.display(description="status")
    def status_shown(self, review: Review) -> str:
        if review.status is None:
            return "reported (nothing held)"
        return review.get_status_display()

    @admin.display(description="signals")
    def signals_shown(self, review: Review) -> SafeString | str:
        return lines_html(signal_lines(review.signals)) or "none fired"

    @admin.display(description="windows")
    def window_shown(self, review: Review) -> SafeString | str:
        """Each window's spread, median and size; a game another game's window put under
        review says which (the queue lists it under that game: one decision for them all)."""
        lines = []
        if review.window_id is not None:
            lines.append(f"in the window of game {review.window.game_id}: decided with it")
        for n, figures in review.windows.items():
            lines.append(
                f"window of {n}: spread {figures.get('spread')}, "
                f"median {figures.get('median_ms')} ms, {figures.get('size')} intervals, "
                f"{len(figures.get('games', []))} earlier game(s)"
            )
        group = getattr(review, "window_size", 0)
        if review.window_id is None and group:
            lines.append(f"its window put {group} earlier game(s) under review (listed below)")
        return lines_html(lines) or "-"

    @admin.display(description="timing")
    def timing_shown(self, review: Review) -> str:
        return ", ".join(f"{key} {value}" for key, value in review.timing.items()) or "-"

    @admin.display(description="reports")
    def reports_shown(self, review: Review) -> str:
        total = getattr(review, "reports", 0)
        open_reports = getattr(review, "open_reports", 0)
        return f"{open_reports} new of {total}" if total else "-"

    @admin.display(description="reports")
    def reports_list(self, review: Review) -> SafeString | str:
        reports = Report.objects.filter(player_id=review.player_id).select_related("reporter")
        rows = [
            (f"{r.created_at:%Y-%m-%d %H:%M} UTC", r.reporter.get_username(), r.reason)
            for r in reports.order_by("created_at")
        ]
        if not rows:
            return "none"
        return format_html_join("", "<p>{} by <b>{}</b>: {}</p>", rows)

    @admin.display(description="see")
    def links(self, review: Review) -> SafeString:
        # The pages' paths (docs/protocol.md 3: a game's "page"; the player pages).
        replay = f"/games/{quote(review.game_id, safe='')}/replay/"
        history = f"/players/{quote(review.player.name, safe='')}/"
        return format_html(
            '<a href="{}" class="replay-link">Replay</a> · '
            '<a href="{}" class="history-link">History of {}</a>',
            replay,
            history,
            review.player.name,
        )

    @admin.action(description="Clear the selected games", permissions=["review"])
    def clear(self, request: HttpRequest, queryset: QuerySet[Review]) -> None:
        cleared = 0
        for review_id in queryset.values_list("id", flat=True):
            try:
                cleared += len(review_clear_window(review_id=review_id, by=request.user))
            except ServiceError as refused:
                self.message_user(request, f"#{review_id}: {refused.message}", messages.ERROR)
        if cleared:
            self.message_user(request, f"Cleared {cleared} game(s).", messages.SUCCESS)

    @admin.action(description="Mark the accounts of the selected games", permissions=["review"])
    def mark(self, request: HttpRequest, queryset: QuerySet[Review]) -> TemplateResponse | None:
        reviews = list(queryset.select_related("user", "player"))
        accounts = {r.user_id: r.user for r in reviews if r.user_id is not None}
        guests = sorted({r.player.name for r in reviews if r.user_id is None})
        if request.POST.get("post") != "yes":
            return self._confirm_mark(request, reviews, list(accounts.values()), guests)
        for guest in guests:
            message = f"No account to mark: {guest} played as a guest."
            self.message_user(request, message, messages.ERROR)
        for user_id, user in sorted(accounts.items()):
            marked = account_mark(user_id=user_id, by=request.user)
            if not marked.new:
                self.message_user(request, f"Marked already: {user.get_username()}.")
                continue
            mark = marked.mark
            self.message_user(
                request,
                f"Marked {user.get_username()}: {mark.refunded_points} rating point(s) given "
                f"back to {mark.refunded_accounts} account(s).",
                messages.SUCCESS,
            )
        return None

    def _confirm_mark(
        self, request: HttpRequest, reviews: list[Review], accounts: list[Any], guests: list[str]
    ) -> TemplateResponse:
        """A mark is for good: say what it does, and ask once more."""
        context = {
            **self.admin_site.each_context(request),
            "title": "Mark these accounts?",
            "opts": self.model._meta,
            "app_label": self.model._meta.app_label,
            "accounts": sorted(user.get_username() for user in accounts),
            "guests": guests,
            "selected": [review.pk for review in reviews],
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "verbose_name_plural": capfirst(self.model._meta.verbose_name_plural),
        }
        return TemplateResponse(request, "admin/fairplay/review/mark_confirmation.html", context)


@admin.register(Mark)
class MarkAdmin(ModeratorsOnly, admin.ModelAdmin):
    """Who was marked, by whom and when, and what the refunds came to: the record."""

    list_display = ("user", "by", "created_at", "refunded_accounts", "refunded_points")
    search_fields = ("user__username",)
    ordering = ("-created_at",)
