"""Players can be inactive or merged into another; the audit trail's new actions."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0007_season_ranking"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="is_active",
            field=models.BooleanField(default=True, verbose_name="active"),
        ),
        migrations.AddField(
            model_name="player",
            name="merged_into",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="clubs.player",
                verbose_name="merged into",
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(
                choices=[
                    ("member_added", "member added"),
                    ("role_changed", "role changed"),
                    ("member_removed", "member removed"),
                    ("player_linked", "login linked to a player"),
                    ("club_updated", "club settings changed"),
                    ("season_created", "season created"),
                    ("season_updated", "season changed"),
                    ("player_created", "player created"),
                    ("sheet_created", "sheet opened"),
                    ("player_renamed", "player renamed"),
                    ("player_active", "player made active or inactive"),
                    ("players_merged", "players merged"),
                    ("merge_undone", "merge undone"),
                    ("sheet_updated", "sheet changed"),
                    ("sheet_deleted", "sheet deleted"),
                    ("sheet_restored", "sheet restored"),
                    ("sheet_closed", "sheet closed"),
                    ("sheet_reopened", "sheet reopened"),
                    ("note_changed", "note changed"),
                ],
                max_length=20,
                verbose_name="change",
            ),
        ),
    ]
