"""Server bugs the fuzzer found, pinned: each fails until its fix, then its xfail must go."""

from __future__ import annotations

import pytest

from tests.fuzz.edge_http import assert_documented, request

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.xfail(strict=True, reason="server bug: no /api/ route matches a newline: HTML 404")
@pytest.mark.parametrize("path", ["/api/players/a%0Ab/", "/api/%0A", "/api/games/%0A/"])
async def test_a_newline_in_an_api_path_gets_json(path):
    assert_documented(await request("GET", path), "GET", path)
