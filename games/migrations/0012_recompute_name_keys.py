"""Recompute every name key as a skeleton (games.names) and rebuild the personal bests.

Two players of one old game whose names now share a skeleton keep their rows: the later one's
key gets its id appended, so the game stays as it was played. The personal bests are rebuilt
from the won scores, one per name and per verified or guest, as scores.py keeps them.
"""

from django.db import migrations

from games.names import name_skeleton

BATCH = 2000


def recompute(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    Score = apps.get_model("games", "Score")
    PersonalBest = apps.get_model("games", "PersonalBest")

    seen: set[tuple[str, str]] = set()
    batch = []
    for player in Player.objects.order_by("game_id", "joined_at", "id").iterator(BATCH):
        key = name_skeleton(player.name)
        if (player.game_id, key) in seen:
            key = f"{key}#{player.id}"
        seen.add((player.game_id, key))
        player.name_key = key
        batch.append(player)
        if len(batch) >= BATCH:
            Player.objects.bulk_update(batch, ["name_key"])
            batch = []
    Player.objects.bulk_update(batch, ["name_key"])

    batch = []
    for score in Score.objects.order_by("id").iterator(BATCH):
        score.name_key = name_skeleton(score.name)
        score.verified = score.user_id is not None
        batch.append(score)
        if len(batch) >= BATCH:
            Score.objects.bulk_update(batch, ["name_key", "verified"])
            batch = []
    Score.objects.bulk_update(batch, ["name_key", "verified"])

    PersonalBest.objects.all().delete()
    best: dict[tuple, tuple] = {}
    won = Score.objects.filter(status="won").exclude(time_ms=None).order_by("id")
    for score in won.iterator(BATCH):
        board = (score.preset, score.variant, score.name_key, score.verified)
        offers = [("time", float(score.time_ms))]
        if score.bbbv_per_s is not None:
            offers.append(("bbbv_per_s", -score.bbbv_per_s))
        for kind, value in offers:
            current = best.get((*board, kind))
            if current is None or (value, score.finished_at) < current[:2]:
                best[(*board, kind)] = (value, score.finished_at, score.id)
    PersonalBest.objects.bulk_create(
        [
            PersonalBest(
                preset=preset, variant=variant, name_key=name_key, verified=verified, kind=kind,
                score_id=score_id, sort_value=value, finished_at=finished_at,
            )  # fmt: skip
            for (preset, variant, name_key, verified, kind), (value, finished_at, score_id) in best.items()
        ],
        batch_size=BATCH,
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0011_name_skeletons")]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
