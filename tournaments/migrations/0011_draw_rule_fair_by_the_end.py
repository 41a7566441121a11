from django.db import migrations, models


def rule_of_spread(apps, schema_editor):
    """An even spread becomes fair by the end (the draw in advance already was); no rule,
    the fewest repeated meetings."""
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(even_spread=False).update(draw_rule="meetings")


def spread_of_rule(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(draw_rule="meetings").update(even_spread=False)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_tournament_team_match"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="draw_rule",
            field=models.CharField(
                choices=[
                    ("end", "fair by the end"),
                    ("round", "fair every round"),
                    ("meetings", "fewer repeated meetings"),
                ],
                default="end",
                max_length=10,
                verbose_name="the draw puts first",
            ),
        ),
        migrations.RunPython(rule_of_spread, spread_of_rule),
        migrations.RemoveField(model_name="tournament", name="even_spread"),
    ]
