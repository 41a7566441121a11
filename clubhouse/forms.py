"""Forms of the player pages: rename a player, merge one into another."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Player


class RenameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)


class MergeForm(forms.Form):
    into = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        label=_("Merge into"),
        empty_label="—",
        help_text=_(
            "Every seat, hand and score of this player moves to the player chosen; "
            "the merge can be undone until a later change touches them."
        ),
    )

    def __init__(self, *args, player, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["into"].queryset = (
            Player.objects.filter(club_id=player.club_id, merged_into__isnull=True)
            .exclude(pk=player.pk)
            .order_by("sort_key", "name")
        )
