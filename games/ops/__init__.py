"""Operations: health probes, Prometheus metrics and log context for the people running Minerace.

`metrics.py` holds the metric objects the rest of the code increments; `logcontext.py` binds a
game and a player to the log lines of the current task; `middleware.py` answers `/healthz`,
`/readyz` and `/metrics` before the rest of the stack sees the request.
"""
