"""Response headers that tell the browser what a page may do: the Content-Security-Policy
(django-csp, with the game's own WebSocket origin added) and a Permissions-Policy.

The policy itself is CONTENT_SECURITY_POLICY in config/settings.py; Referrer-Policy,
Cross-Origin-Opener-Policy and X-Frame-Options come from Django's own middleware.
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

# Powerful features no page of Minerace uses, denied to the page and to any frame. Only names
# Chromium recognises: an unknown one costs a console error on every page. Not listed, so left
# at their defaults: vibrate (a long press that flags buzzes the phone, board-input.js) and
# clipboard-write (the race's "Copy" buttons).
DENIED_FEATURES = (
    "accelerometer",
    "autoplay",
    "camera",
    "display-capture",
    "encrypted-media",
    "geolocation",
    "gyroscope",
    "hid",
    "idle-detection",
    "magnetometer",
    "microphone",
    "midi",
    "payment",
    "publickey-credentials-get",
    "screen-wake-lock",
    "serial",
    "usb",
    "xr-spatial-tracking",
)
PERMISSIONS_POLICY = ", ".join(f"{feature}=()" for feature in DENIED_FEATURES)


class PermissionsPolicyMiddleware(MiddlewareMixin):
    """Send PERMISSIONS_POLICY with every answer that has none yet (sync or async, as the
    stack around it runs)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class GameCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, with this host's WebSocket origin in connect-src.

    CSP level 3 lets 'self' match ws: and wss: on the page's own host (Chromium and Firefox do),
    but older Safari does not: naming the origin keeps the game's socket open there too.
    """

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:  # the 400 for a foreign Host header: no socket to allow
            return parts
        scheme = "wss" if request.is_secure() else "ws"
        update = dict(parts.update or {})
        update["connect-src"] = [*update.get("connect-src", ()), f"{scheme}://{host}"]
        parts.update = update
        return parts
