"""The edge's shared parts: JSON HTTP answers and errors (http.py), validation of client input
(validation.py), WebSocket frames (frames.py) and socket limits (socket_limits.py), and the
HTTP middleware. Views and consumers in each room use them; no rule of the game lives here."""
