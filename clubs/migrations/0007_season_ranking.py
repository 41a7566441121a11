"""Season.ranking: how a season's standings rank the players (``clubs.ranking_rule``)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0006_player_sort_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="ranking",
            field=models.JSONField(blank=True, default=dict, verbose_name="ranking"),
        ),
    ]
