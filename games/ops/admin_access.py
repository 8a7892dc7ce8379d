"""Admin pages that staff holding one permission read and nobody edits: the moderators' review
queue and the record confirmers' pages decide through their room's services (admin actions),
never by editing rows."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


class ReadOnlyForPermission:
    """A ModelAdmin mixin: seen by active staff holding `permission`, changed by nobody."""

    permission = ""

    def allows(self, request: HttpRequest) -> bool:
        user = request.user
        return user.is_active and user.is_staff and user.has_perm(self.permission)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.allows(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.allows(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
