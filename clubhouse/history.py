"""The club's history for its managers: every ``AuditEntry`` and every ``HandRevision``.

Both sources are read as one list, newest first, in one SQL ``UNION ALL`` (so it
is filtered, counted and paginated by the database): the same columns from
each, under the same names. The filters (kind of change, who, a date range)
apply to both sides before the union.
"""

import django_filters
import django_tables2 as tables
from django.contrib.auth import get_user_model
from django.db.models import CharField, DateField, F, IntegerField, Q, Value
from django.db.models.functions import Concat
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from clubs.models import AuditEntry
from core.widgets import DateInput
from scoresheet.models import HandRevision

HAND = "hand_"  # the kinds of hand changes: "hand_" + HandRevision.Action

KIND_LABELS = {
    **dict(AuditEntry.Action.choices),
    HAND + HandRevision.Action.CREATED: _("hand entered"),
    HAND + HandRevision.Action.CORRECTED: _("hand corrected"),
    HAND + HandRevision.Action.DELETED: _("hand deleted"),
    HAND + HandRevision.Action.RESTORED: _("hand restored"),
    HAND + HandRevision.Action.RESCORED: _("hand re-scored"),
}

#: The columns of both sides of the union, in this order.
COLUMNS = (
    "row_id",
    "when",
    "kind",
    "who",
    "object_type",
    "object_id",
    "label",
    "sheet",
    "sheet_date",
    "sheet_table",
    "number",
    "cause_number",
    "cause_kind",
    "was",
    "now",
)


def _entries(queryset):
    null_int = Value(None, output_field=IntegerField())
    return queryset.annotate(
        row_id=F("id"),
        when=F("at"),
        kind=F("action"),
        who=F("actor__username"),
        otype=F("object_type"),
        oid=F("object_id"),
        label=F("object_label"),
        sheet=null_int,
        sheet_date=Value(None, output_field=DateField()),
        sheet_table=Value(None, output_field=CharField()),
        number=null_int,
        cause_number=null_int,
        cause_kind=Value(None, output_field=CharField()),
        was=F("before"),
        now=F("after"),
    ).values(*_names())


def _revisions(queryset):
    return queryset.annotate(
        row_id=F("id"),
        when=F("at"),
        kind=Concat(Value(HAND), F("action"), output_field=CharField()),
        who=F("user__username"),
        otype=Value("hand", output_field=CharField()),
        oid=F("hand_id"),
        label=Value("", output_field=CharField()),
        sheet=F("hand__sheet_id"),
        sheet_date=F("hand__sheet__date"),
        sheet_table=F("hand__sheet__table"),
        number=F("hand__number"),
        cause_number=F("caused_by__hand__number"),
        cause_kind=F("caused_by__action"),
        was=F("before"),
        now=F("after"),
    ).values(*_names())


def _names():
    return [{"object_type": "otype", "object_id": "oid"}.get(c, c) for c in COLUMNS]


def history(entries, revisions):
    """One queryset of both, newest first (rows are dicts of ``_names()``)."""
    sides = _entries(entries.order_by()), _revisions(revisions.order_by())
    return sides[0].union(sides[1], all=True).order_by("-when", "-row_id")


def _users(request):
    club = request.club
    User = get_user_model()
    return (
        User.objects.filter(
            Q(memberships__club=club)
            | Q(pk__in=AuditEntry.objects.filter(club=club).values("actor"))
            | Q(pk__in=HandRevision.objects.filter(hand__sheet__club=club).values("user"))
        )
        .distinct()
        .order_by("username")
    )


class HistoryFilter(django_filters.FilterSet):
    """Filters both sources of the history (``filter_queryset`` builds the union)."""

    kind = django_filters.ChoiceFilter(
        label=_("Change"), choices=list(KIND_LABELS.items()), empty_label=_("Every change")
    )
    who = django_filters.ModelChoiceFilter(label=_("By"), queryset=_users, empty_label=_("Anyone"))
    date_from = django_filters.DateFilter(label=_("From"), widget=DateInput())
    date_to = django_filters.DateFilter(label=_("To"), widget=DateInput())

    class Meta:
        model = AuditEntry
        fields = ()

    def filter_queryset(self, queryset):
        """``queryset``: the club's audit entries; the club's hand revisions are added."""
        data = self.form.cleaned_data
        entries = queryset
        revisions = HandRevision.objects.filter(hand__sheet__club=self.request.club)
        kind = data.get("kind")
        if kind and kind.startswith(HAND):
            entries = entries.none()
            revisions = revisions.filter(action=kind.removeprefix(HAND))
        elif kind:
            entries = entries.filter(action=kind)
            revisions = revisions.none()
        if data.get("who") is not None:
            entries = entries.filter(actor=data["who"])
            revisions = revisions.filter(user=data["who"])
        if data.get("date_from"):
            entries = entries.filter(at__date__gte=data["date_from"])
            revisions = revisions.filter(at__date__gte=data["date_from"])
        if data.get("date_to"):
            entries = entries.filter(at__date__lte=data["date_to"])
            revisions = revisions.filter(at__date__lte=data["date_to"])
        return history(entries, revisions)

    @property
    def is_active(self):
        form = self.form
        return form.is_valid() and any(v not in (None, "") for v in form.cleaned_data.values())


#: The names of the fields a change records, in the page's language (an unknown one
#: shows as recorded).
FIELD_LABELS = {
    "players": _("players"),
    "rules": _("rules"),
    "preset": _("preset"),
    "name": _("name"),
    "date": _("date"),
    "table": _("table"),
    "note": _("note"),
    "role": _("role"),
    "user": _("user"),
    "email": _("e-mail"),
    "active": _("active"),
    "league": _("league"),
    "licence": _("licence"),
    "serie": _("série"),
    "person": _("person"),
    "player": _("player"),
    "round": _("round"),
    "rounds": _("rounds"),
    "tables": _("tables"),
    "withdrawn": _("withdrawn"),
    "login": _("login"),
    "season": _("season"),
    "kind": _("kind"),
    "deck": _("deck"),
    "closed": _("closed"),
    "slug": _("slug"),
    "number": _("number"),
}


def _label(key) -> str:
    return str(FIELD_LABELS.get(key, key))


def _line(key, value) -> str:
    """ "field: value" with the language's spacing (a no-break space before the colon in French)."""
    return _("%(label)s: %(value)s") % {"label": _label(key), "value": value}


def _value(value):
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{_label(k)} {_value(v)}" for k, v in value.items())
    return str(value)


def _scores(scores):
    return ", ".join(f"{name} {_value(score)}" for name, score in (scores or {}).items())


def describe_change(row) -> list[str]:
    """The change in short lines: "field: before → after" (what was, for a removal)."""
    was, now = row["was"] or {}, row["now"] or {}
    if row["kind"].startswith(HAND):
        old, new = was.get("scores") or {}, now.get("scores") or {}
        if old and new:
            changed = [n for n in {**old, **new} if old.get(n) != new.get(n)]
            return [_line(n, f"{_value(old.get(n))} → {_value(new.get(n))}") for n in changed]
        return [_scores(new or old)]
    lines = []
    for key in dict.fromkeys([*was, *now]):
        if key.startswith("_"):  # what a service keeps for itself (a merge's moved ids)
            continue
        if key in was and key in now:
            if was[key] != now[key]:
                lines.append(_line(key, f"{_value(was[key])} → {_value(now[key])}"))
        elif key in now:
            lines.append(_line(key, _value(now[key])))
        else:
            lines.append(_line(key, _value(was[key])))
    return lines


class HistoryTable(tables.Table):
    when = tables.Column(verbose_name=_("When"), orderable=False)
    who = tables.Column(verbose_name=_("By"), orderable=False, default="—")
    kind = tables.Column(verbose_name=_("Change"), orderable=False)
    label = tables.Column(verbose_name=_("What"), orderable=False, empty_values=())
    now = tables.Column(verbose_name=_("Before → after"), orderable=False, empty_values=())

    class Meta:
        attrs = {"class": "table history-table"}
        empty_text = _("No change recorded.")
        orderable = False

    def __init__(self, *args, club, **kwargs):
        self.club = club
        super().__init__(*args, **kwargs)

    def render_when(self, value):
        return date_format(localtime(value), "SHORT_DATETIME_FORMAT")

    def render_kind(self, value):
        return KIND_LABELS.get(value, value)

    def render_label(self, record):
        if record["number"] is None:
            return record["label"] or "—"
        url = reverse("scoresheet:hand", args=[self.club.slug, record["sheet"], record["number"]])
        sheet = date_format(record["sheet_date"], "SHORT_DATE_FORMAT")
        if record["sheet_table"]:
            sheet = _("%(date)s, table %(table)s") % {"date": sheet, "table": record["sheet_table"]}
        text = _("Hand %(number)s of %(sheet)s") % {"number": record["number"], "sheet": sheet}
        link = format_html('<a href="{}">{}</a>', url, text)
        if record["cause_number"] is None:
            return link
        cause = KIND_LABELS.get(HAND + (record["cause_kind"] or ""), "")
        return format_html(
            '{} <span class="muted">{}</span>',
            link,
            _("(after hand %(number)s: %(cause)s)")
            % {"number": record["cause_number"], "cause": cause},
        )

    def render_now(self, record):
        lines = describe_change(record)
        if not lines:
            return "—"
        return format_html_join(mark_safe("<br>"), "{}", ((line,) for line in lines))
