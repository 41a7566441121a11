"""Player.sort_key: the accent- and case-insensitive key lists of players sort by."""

import unicodedata

from django.db import migrations, models

#: ``core.text.sort_key`` as it was when this migration was written, frozen here so
#: that a later change to the application's key cannot change what this step wrote.
_SPELT = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "đ": "d", "ł": "l", "ı": "i"})


def sort_key(name):
    decomposed = unicodedata.normalize("NFKD", str(name or ""))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold().translate(_SPELT).strip()[:200]


def fill_sort_keys(apps, schema_editor):
    Player = apps.get_model("clubs", "Player")
    players = list(Player.objects.only("pk", "name"))
    for player in players:
        player.sort_key = sort_key(player.name)
    Player.objects.bulk_update(players, ["sort_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0005_invitation"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="sort_key",
            field=models.CharField(default="", editable=False, max_length=200),
        ),
        migrations.RunPython(fill_sort_keys, migrations.RunPython.noop),
        migrations.AlterModelOptions(
            name="player",
            options={
                "ordering": ["sort_key", "name"],
                "verbose_name": "player",
                "verbose_name_plural": "players",
            },
        ),
    ]
