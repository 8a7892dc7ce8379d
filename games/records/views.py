"""The HTTP API of records (docs/protocol.md 9.3)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

from games.edge.http import api_view
from games.records.selectors import record_kit, records_list


@api_view("GET")
def records(request: HttpRequest) -> JsonResponse:
    return JsonResponse(records_list())


@api_view("GET")
def kit(request: HttpRequest, record_id: str) -> HttpResponse:
    return record_kit(record_id=int(record_id))
