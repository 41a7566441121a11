"""Every scope rated again once with the model whose sides are their players' means
(``ratings.compute``): the ratings kept before it had sunk towards 0 (a side was the
sum of its players), and their stored ``ordinal`` is now the rating shown.

It runs the app's own re-rating (``keeping.rerate_or_defer``), scope by scope, as a
restore does: a scope of more than ``RATINGS_BACKGROUND_HANDS`` hands is left to the
background task (a ``Recompute`` row, the ``recompute`` task enqueued once the
migration commits; the pages say "being recomputed" meanwhile), a smaller one is
rated in the migration. A database with no rating (a new one) has nothing to do.
"""

from django.db import migrations


def rerate_every_scope(apps, schema_editor):
    Rating = apps.get_model("ratings", "Rating")
    keys = sorted(set(Rating.objects.values_list("scope", flat=True)))
    if not keys:
        return
    # the live re-rating, not a copy: a later schema change leaves this step behind it
    from ratings import keeping

    for key in keys:
        keeping.rerate_or_defer(key)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_recompute"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(rerate_every_scope, migrations.RunPython.noop)]
