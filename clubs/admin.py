from django.contrib import admin

from clubs.models import Club, Membership, Player, Season


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "user"]
    raw_id_fields = ["user"]


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ["name", "start_date", "end_date", "rules"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    list_select_related = ["user", "club"]
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_public", "created_at"]
    list_filter = ["is_public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [SeasonInline, PlayerInline, MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user"]
    list_filter = ["club"]
    search_fields = ["name", "club__name", "user__username"]
    list_select_related = ["club", "user"]
    raw_id_fields = ["user"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "start_date", "end_date"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
