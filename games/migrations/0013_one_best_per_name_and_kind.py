from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0012_recompute_name_keys")]

    operations = [
        migrations.AddConstraint(
            model_name="personalbest",
            constraint=models.UniqueConstraint(
                fields=("preset", "variant", "kind", "name_key", "verified"),
                name="one_best_per_name_and_kind",
            ),
        ),
    ]
