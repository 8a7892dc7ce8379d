"""Setup on the browser tests' server database (tests/browser/support/fairplay.on_server):
`moderator <username>` and `refunded <username> <cheater>`. Run as a module with
DATABASE_URL pointing at the server's SQLite file. The commands import the models inside:
Django is set up only once the module runs."""

from __future__ import annotations

import sys
from datetime import timedelta

import django


def moderator(username: str) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    user = get_user_model().objects.get(username=username)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.add(Permission.objects.get(codename="review_game"))


def refunded(username: str, cheater_name: str) -> None:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.fairplay.services import account_mark
    from tests.fairplay.marking import fake_rated_race, rated_at

    users = get_user_model().objects
    victim = users.get(username=username)
    cheater = users.create_user(cheater_name, password="unused-Password-42")
    rival = users.create_user(f"{cheater_name}-rival", password="unused-Password-42")
    rated_at(victim, 1028)
    now = timezone.now()
    fake_rated_race(now - timedelta(days=3), [(victim, 1000, 1041), (rival, 1000, 980)])
    fake_rated_race(now - timedelta(days=2), [(victim, 1041, 1063), (rival, 980, 962)])
    fake_rated_race(now - timedelta(days=1), [(cheater, 1000, 1030), (victim, 1063, 1028)])
    account_mark(user_id=cheater.pk)


if __name__ == "__main__":
    django.setup()
    command, *arguments = sys.argv[1:]
    {"moderator": moderator, "refunded": refunded}[command](*arguments)
