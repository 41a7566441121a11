"""Admin for sheets and hands: it reads the ledger, it never edits it.

Hands, seats, score rows and the history are read-only here: hands change
through the services, which keep the score rows, the totals and the history in
step. A sheet is opened on the club's pages; once it has a hand, its date,
season, rules and seating are read-only too and it cannot be deleted here (a
changed seat would orphan its hands' score rows, a changed season its totals).
A sheet with no hand yet may be corrected (its rules are validated) or deleted.
"""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from clubs.refusals import message_of
from scoresheet.models import Hand, HandRevision, ScoreRow, Seat, Sheet
from tarot import ScoringError
from tarot.jsonformat import parse_rules


def _has_hands(sheet) -> bool:
    return sheet is not None and sheet.pk is not None and sheet.hands.exists()


class SheetAdminForm(forms.ModelForm):
    class Meta:
        model = Sheet
        fields = ["club", "season", "date", "table", "rules"]

    def clean_rules(self):
        try:
            return parse_rules(self.cleaned_data["rules"]).as_dict()
        except ScoringError as error:
            raise forms.ValidationError(message_of(error), code=error.code) from None

    def clean(self):
        cleaned = super().clean()
        season = cleaned.get("season")
        if season is not None and cleaned.get("club") not in (None, season.club):
            self.add_error("season", _("This season belongs to another club."))
        return cleaned


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]

    def has_add_permission(self, request, obj=None):
        return not _has_hands(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return not _has_hands(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not _has_hands(obj) and super().has_delete_permission(request, obj)


@admin.register(Sheet)
class SheetAdmin(admin.ModelAdmin):
    form = SheetAdminForm
    list_display = ["__str__", "club", "season", "date", "table", "created_by"]
    list_filter = ["club", "season"]
    date_hierarchy = "date"
    list_select_related = ["club", "season", "created_by"]
    raw_id_fields = ["season", "created_by"]
    inlines = [SeatInline]

    def has_add_permission(self, request):
        return False  # sheets are opened on the club's pages, seats and rules together

    def has_change_permission(self, request, obj=None):
        return not _has_hands(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not _has_hands(obj) and super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # it would delete sheets with hands
        return actions


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ScoreRowInline(admin.TabularInline):
    model = ScoreRow
    fields = ["player", "role", "score", "pool"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class RevisionInline(admin.TabularInline):
    model = HandRevision
    fields = ["action", "user", "at", "before", "after"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "taker", "contract", "bouts", "points", "is_deleted", "entered_by"]
    list_filter = ["is_deleted", "contract", "sheet__club"]
    list_select_related = ["sheet", "taker", "entered_by"]
    inlines = [ScoreRowInline, RevisionInline]


@admin.register(ScoreRow)
class ScoreRowAdmin(ReadOnlyAdmin):
    list_display = ["hand", "player", "role", "score", "pool"]
    list_filter = ["role", "season"]
    list_select_related = ["hand__sheet", "player"]


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdmin):
    list_display = ["hand", "action", "user", "at"]
    list_filter = ["action"]
    list_select_related = ["hand__sheet", "user"]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["sheet", "position", "player"]
    list_select_related = ["sheet", "player"]
