"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Must run before anything that imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.daphne_close_codes import allow_endpoint_close_codes  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from games.edge.unavailable import WebSocketGuard  # noqa: E402
from games.limits.address import ClientAddressMiddleware  # noqa: E402

allow_endpoint_close_codes()

# Outermost: every limit below keys on the client address the trusted proxy reports.
application = ClientAddressMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # Outside the session lookup too: a database or Redis away is told to the client
            # (internal, then close 1013), never a handshake answered 500.
            "websocket": WebSocketGuard(
                AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
            ),
        }
    )
)
