"""Operations: health probes, Prometheus metrics and log context for the people running Minerace.

metrics.py     the metric objects the rest of the code increments
logcontext.py  game and player ids on the log lines of the current task
health.py      readiness checks: the database and Redis reachable
middleware.py  answers /healthz, /readyz and /metrics before the rest of the stack
views.py       liveness, readiness and the metrics
admin_access.py  admin pages read by staff holding one permission, edited by nobody
"""
