"""Claim the names of the accounts made before claims existed, oldest first.

Two old usernames that share a skeleton cannot both hold it: the newer account keeps its
login but no claim (a guest still cannot take its exact username's skeleton, which the older
account holds), and the migration prints it for an operator to rename.
"""

from django.conf import settings
from django.db import migrations

from games.names import name_skeleton


def claim(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    AccountName = apps.get_model("accounts", "AccountName")
    taken = set(AccountName.objects.values_list("skeleton", flat=True))
    for user in User.objects.order_by("date_joined", "pk").iterator():
        skeleton = name_skeleton(user.username)
        if skeleton in taken:
            print(f"\n  account {user.pk} ({user.username!r}) looks like an older one: rename it")
            continue
        taken.add(skeleton)
        AccountName.objects.create(user_id=user.pk, skeleton=skeleton)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(claim, migrations.RunPython.noop)]
