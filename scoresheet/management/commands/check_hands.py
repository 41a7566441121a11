"""List the stored hands that today's rules would refuse or score differently.

The rules contract can be corrected after hands were entered (RULES.md §1.2 now
allows a half point at four players, §5 refuses a chelem the card points
contradict). This command reads every live hand, scores it again under its
sheet's rules, and prints the ones a club should look at: refused now (with the
engine's code and reason) or scored differently from the ledger. It changes
nothing: the club corrects the hands on the sheet pages.
"""

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from scoresheet.models import Sheet
from scoresheet.rules_check import check_sheet


class Command(BaseCommand):
    help = (
        "List stored hands that the current rules would refuse or score differently "
        "(club, sheet, hand, reason). Changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", help="only this club (its slug)")

    def handle(self, *args, club=None, **options):
        sheets = Sheet.objects.select_related("club").order_by("club__slug", "date", "pk")
        if club is not None:
            if not Club.objects.filter(slug=club).exists():
                raise CommandError(f"No club with slug {club!r}")
            sheets = sheets.filter(club__slug=club)
        checked = flagged = 0
        for sheet in sheets.iterator(chunk_size=200):
            findings, count = check_sheet(sheet)
            checked += count
            for finding in findings:
                flagged += 1
                table = f", table {sheet.table}" if sheet.table else ""
                self.stdout.write(
                    f"{sheet.club.slug} · sheet {sheet.pk} ({sheet.date}{table}) · "
                    f"hand {finding.number}: {finding.reason}"
                )
        self.stdout.write(f"checked {checked} hands: {flagged} to look at")
