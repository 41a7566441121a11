"""League points kept exactly: each result's weighted points and each standing's total
as a fraction, what the sums add and the ranks compare (the decimals were sums of
values rounded to the thousandth). The stored results get their exact points again from
their ranks, the season's scale and the event's coefficient, and every season's sums
and ranks are kept again, by the code of this migration (frozen: the scale's points,
the best N, the rank rule)."""

from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db import migrations, models


def _points(scale, rank, field, behind):
    if scale.get("kind") == "proportional":
        top = Fraction(str(scale.get("points", 100)))
        return top if field <= 1 else top * behind / (field - 1)
    table = None
    for candidate in sorted(scale.get("tables", []), key=lambda t: t.get("from", 1)):
        if candidate.get("from", 1) <= field:
            table = candidate
    if table is None or rank > len(table["points"]):
        return Fraction(0)
    return Fraction(str(table["points"][rank - 1]))


def _shown(value):
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.001"), rounding=ROUND_HALF_UP
    )


def _ranks(totals, keys):
    ordered = sorted(keys, key=lambda k: totals[k], reverse=True)
    out, previous, place = {}, None, 0
    for position, key in enumerate(ordered, start=1):
        if position == 1 or totals[key] != previous:
            place = position
        previous = totals[key]
        out[key] = place
    return out


def exact(apps, schema_editor):
    LeagueEvent = apps.get_model("leagues", "LeagueEvent")
    EventResult = apps.get_model("leagues", "EventResult")
    Standing = apps.get_model("leagues", "Standing")
    LeagueSeason = apps.get_model("leagues", "LeagueSeason")
    for event in LeagueEvent.objects.select_related("season"):
        results = list(EventResult.objects.filter(event=event))
        ranks = [r.rank for r in results]
        coefficient = Fraction(str(event.coefficient))
        for result in results:
            behind = sum(1 for other in ranks if other > result.rank)
            weighted = _points(event.season.scale, result.rank, len(ranks), behind) * coefficient
            result.exact = str(weighted)
        EventResult.objects.bulk_update(results, ["exact"], batch_size=500)
    for season in LeagueSeason.objects.all():
        per = defaultdict(list)
        for person, event, value in EventResult.objects.filter(
            season=season, person__isnull=False, event__withdrawn_at__isnull=True
        ).values_list("person_id", "event_id", "exact"):
            per[person].append((Fraction(value), event))
        Standing.objects.filter(season=season).delete()
        totals, rows = {}, {}
        for person, found in per.items():
            found.sort(key=lambda r: (-r[0], r[1]))
            kept = found[: season.best_events] if season.best_events else found
            totals[person] = sum((w for w, _e in kept), Fraction(0))
            rows[person] = (len(kept), len(found))
        series = dict(
            apps.get_model("clubs", "Person").objects.filter(pk__in=list(totals)).values_list(
                "pk", "serie"
            )
        )
        place = _ranks(totals, sorted(totals))
        serie_place = {}
        groups = defaultdict(list)
        for person in sorted(totals):
            groups[series.get(person) or ""].append(person)
        for members in groups.values():
            serie_place.update(_ranks(totals, members))
        Standing.objects.bulk_create(
            [
                Standing(
                    season=season,
                    person_id=person,
                    total=_shown(totals[person]),
                    exact=str(totals[person]),
                    counted=rows[person][0],
                    played=rows[person][1],
                    place=place[person],
                    serie_place=serie_place[person],
                )
                for person in sorted(totals)
            ],
            batch_size=500,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0016_audit_actions_merged"),
        ("leagues", "0006_team_moved"),
    ]

    operations = [
        migrations.AddField(
            model_name="eventresult",
            name="exact",
            field=models.TextField(default="0"),
        ),
        migrations.AddField(
            model_name="standing",
            name="exact",
            field=models.TextField(default="0"),
        ),
        migrations.RunPython(exact, migrations.RunPython.noop),
    ]
