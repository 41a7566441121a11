"""Sheets can be deleted and restored (deleted_at); notes on a sheet and on a hand."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0007_scale_stored_facts"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="note",
            field=models.TextField(blank=True, max_length=2000, verbose_name="note"),
        ),
        migrations.AddField(
            model_name="sheet",
            name="deleted_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="deleted"),
        ),
        migrations.AddField(
            model_name="sheet",
            name="note",
            field=models.TextField(blank=True, max_length=2000, verbose_name="note"),
        ),
    ]
