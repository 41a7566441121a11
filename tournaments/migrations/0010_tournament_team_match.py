from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_even_spread"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="team_match",
            field=models.BooleanField(default=False, editable=False),
        ),
    ]
