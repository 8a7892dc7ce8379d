"""One worker noticing a season: `python -m tests.ratings.season_turn_process <ISO moment>`
with DATABASE_URL set calls season_current at that moment and prints the season's id. Its log
(stderr) says "soft reset" when this process did the reset."""

from __future__ import annotations

import os
import sys
from datetime import datetime

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main() -> None:
    import django

    django.setup()
    from games.ratings.seasons import season_current

    season = season_current(now=datetime.fromisoformat(sys.argv[1]))
    print(season.id, flush=True)


if __name__ == "__main__":
    main()
