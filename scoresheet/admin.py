"""Admin for sheets and hands.

The ledger (score rows) and the history are read-only here: hands are changed
through the services, which keep the rows and the history in step.
"""

from django.contrib import admin

from scoresheet.models import Hand, HandRevision, ScoreRow, Seat, Sheet


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Sheet)
class SheetAdmin(admin.ModelAdmin):
    list_display = ["__str__", "club", "season", "date", "table", "created_by"]
    list_filter = ["club", "season"]
    date_hierarchy = "date"
    list_select_related = ["club", "season", "created_by"]
    raw_id_fields = ["season", "created_by"]
    inlines = [SeatInline]


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


admin.site.register(Seat)
