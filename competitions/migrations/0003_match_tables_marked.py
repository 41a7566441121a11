"""The events already opened for a team match's two tables are marked as such."""

from django.db import migrations


def mark(apps, schema_editor):
    MatchTable = apps.get_model("competitions", "MatchTable")
    Tournament = apps.get_model("tournaments", "Tournament")
    ids = MatchTable.objects.exclude(round_table=None).values_list(
        "round_table__round__tournament_id", flat=True
    )
    Tournament.objects.filter(pk__in=list(ids)).update(team_match=True)


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0002_links_claims"),
        ("tournaments", "0010_tournament_team_match"),
    ]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
