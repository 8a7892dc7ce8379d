"""The WebSocket edge: consumers speak the protocol (PROTOCOL.md section 4) and call services.

Frames are parsed and validated here, each connection takes its role's view of an event, and
timers nudge the clock; no rule of the game lives in this package.
"""
