"""The records and their history (`GET /api/records/`, docs/protocol.md 9.3), and a record's
kit. A kind's records are read in the order they were set: each one that beat every earlier
one is a record of its day, the last of them stands now; one confirmed late, after a faster
one set earlier, was never the record and is not listed."""

from __future__ import annotations

from itertools import groupby, pairwise
from typing import Any
from urllib.parse import quote

from django.http import HttpResponse

from games.engine.presets import PRESETS
from games.errors import ServiceError
from games.models import Style, Variant
from games.records.models import Record
from games.records.services import standing
from games.timefmt import iso

PRESET_ORDER = list(PRESETS)
VARIANT_ORDER = [Variant.CLASSIC, Variant.NO_GUESS]
STYLE_ORDER = [Style.ALL, Style.NF]


def kit_url(record_id: int) -> str:
    return f"/api/records/{record_id}/kit/"


def entry(record: Record) -> dict[str, Any]:
    return {
        "id": record.pk,
        "preset": record.preset,
        "variant": record.variant,
        "style": record.style,
        "name": record.name,
        "player_page": f"/players/{quote(record.name, safe='')}/" if record.user_id else None,
        "time_ms": record.time_ms,
        "bbbv": record.bbbv,
        "bbbv_per_s": record.bbbv_per_s,
        "game": record.game_id,
        "set_at": iso(record.set_at),
        "confirmed_at": iso(record.confirmed_at),
        "kit": kit_url(record.pk),
    }


def _kind_order(record: Record) -> tuple[int, int, int]:
    def place(order: list[Any], value: str) -> int:
        return order.index(value) if value in order else len(order)

    return (
        place(PRESET_ORDER, record.preset),
        place(VARIANT_ORDER, record.variant),
        place(STYLE_ORDER, record.style),
    )


def progression(records: list[Record]) -> list[Record]:
    """Of one kind's records in the order they were set, those faster than every earlier one."""
    kept: list[Record] = []
    for record in records:
        if not kept or record.time_ms < kept[-1].time_ms:
            kept.append(record)
    return kept


def records_list() -> dict[str, Any]:
    """Each kind's standing record (presets, then classic before no-guess, then all before NF),
    and `history`: the records each beat, newest (set last) first, each with `beaten_by` (the
    id of the record that beat it) and `beaten_at`."""
    rows = sorted(
        standing().only(*[f.name for f in Record._meta.concrete_fields if f.name != "kit"]),
        key=lambda r: (_kind_order(r), r.set_at, r.confirmed_at, r.pk),
    )
    current, history = [], []
    for _, kind in groupby(rows, key=_kind_order):
        kept = progression(list(kind))
        current.append(entry(kept[-1]))
        for earlier, later in pairwise(kept):
            history.append(
                {**entry(earlier), "beaten_by": later.pk, "beaten_at": iso(later.set_at)}
            )
    history.sort(key=lambda row: row["set_at"], reverse=True)
    return {"records": current, "history": history}


def record_kit(*, record_id: int) -> HttpResponse:
    """The record's kit as it was signed, a JSON file to save (a marked account's is gone)."""
    record = standing(pk=record_id).only("kit", "preset", "style", "name").first()
    if record is None:
        raise ServiceError("not_found", "no such record")
    response = HttpResponse(record.kit, content_type="application/json")
    filename = f"minerace-record-{record.pk}-{record.preset}-{record.style}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
