"""Each account's name claim gains its look (games.names.name_look: the skeleton with the case
kept), so that `CaroI` (capital i) can no longer sign up or play beside `Carol` (issue 22.3).

Existing accounts get theirs oldest first. Two old usernames that look alike cannot both hold
the look: the newer keeps its login and its skeleton but no look (null), and the migration
prints it for an operator to rename, as 0002 did for skeletons.
"""

from django.conf import settings
from django.db import migrations, models

from games.names import name_look


def claim_looks(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    AccountName = apps.get_model("accounts", "AccountName")
    claims = {c.user_id: c for c in AccountName.objects.all()}
    taken: set[str] = set()
    for user in User.objects.order_by("date_joined", "pk").iterator():
        claim = claims.get(user.pk)
        if claim is None:  # no claim at all (0002): nothing to add to
            continue
        look = name_look(user.username)
        if look in taken:
            print(f"\n  account {user.pk} ({user.username!r}) looks like an older one: rename it")
            continue
        taken.add(look)
        claim.look = look
        claim.save(update_fields=["look"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_account")]

    operations = [
        migrations.AddField(
            model_name="accountname",
            name="look",
            field=models.CharField(blank=True, max_length=256, null=True, unique=True),
        ),
        migrations.RunPython(claim_looks, migrations.RunPython.noop),
    ]
