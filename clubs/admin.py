"""Admin for clubs, players, seasons and memberships.

The admin is the site operator's tool, not a second way around the rules: house
rules are validated as the club's pages validate them, and a club never loses
its last manager here either.
"""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Membership, Player, Role, Season
from clubs.refusals import message_of
from tarot import ScoringError
from tarot.jsonformat import parse_rules


class SeasonAdminForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["club", "name", "start_date", "end_date", "rules"]

    def clean_rules(self):
        rules = self.cleaned_data["rules"]
        try:
            return parse_rules(rules).as_dict()
        except ScoringError as error:
            raise forms.ValidationError(message_of(error), code=error.code) from None


class MembershipAdminForm(forms.ModelForm):
    class Meta:
        model = Membership
        fields = ["club", "user", "role"]

    def clean(self):
        cleaned = super().clean()
        old = self.instance
        if old.pk and old.role == Role.MANAGER:
            moved = cleaned.get("club") not in (None, old.club) if "club" in cleaned else False
            demoted = cleaned.get("role") != Role.MANAGER
            if (moved or demoted) and not _other_managers(old):
                raise forms.ValidationError(LAST_MANAGER, code="last_manager")
        return cleaned


class MembershipFormSet(forms.BaseInlineFormSet):
    """A club's memberships edited together: at least one manager stays."""

    def clean(self):
        super().clean()
        if not self.instance.pk or not _managers(self.instance).exists():
            return  # a club without a manager yet may be given one here, or not
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            if data and not data.get("DELETE") and data.get("role") == Role.MANAGER:
                return
        raise forms.ValidationError(LAST_MANAGER, code="last_manager")


LAST_MANAGER = _("A club keeps at least one manager: make somebody else manager first.")


def _managers(club):
    return Membership.objects.filter(club=club, role=Role.MANAGER)


def _other_managers(membership):
    return _managers(membership.club_id).exclude(pk=membership.pk).exists()


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "user"]
    raw_id_fields = ["user"]


class SeasonInline(admin.TabularInline):
    model = Season
    form = SeasonAdminForm
    extra = 0
    fields = ["name", "start_date", "end_date", "rules"]


class MembershipInline(admin.TabularInline):
    model = Membership
    formset = MembershipFormSet
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    form = MembershipAdminForm
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    list_select_related = ["user", "club"]
    raw_id_fields = ["user"]

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.role == Role.MANAGER and not _other_managers(obj):
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        """No bulk delete: it could remove a club's last manager. Delete one at a time."""
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


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
    form = SeasonAdminForm
    list_display = ["name", "club", "start_date", "end_date"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
