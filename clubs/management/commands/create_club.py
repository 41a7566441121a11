"""Start a club for real use: the club, its manager, and a first season."""

import datetime
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.text import slugify

from clubs.models import Club, Membership, Role, Season


class Command(BaseCommand):
    help = (
        "Create a club with USERNAME as its manager and a first season under the FFT "
        "rules. A new user gets a random password, printed once."
    )

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--manager", required=True, metavar="USERNAME")
        parser.add_argument("--slug", help="the club's address (default: from the name)")
        parser.add_argument("--email", default="", help="the manager's email, for a new user")
        parser.add_argument(
            "--private", action="store_true", help="members only (default: public standings)"
        )
        parser.add_argument("--season", help="the first season's name (default: the year)")

    def handle(self, *args, name, manager, slug, email, private, season, **options):
        slug = slug or slugify(name)[:60]
        if not slug:
            raise CommandError("The club needs a slug: pass --slug")
        if Club.objects.filter(slug=slug).exists():
            raise CommandError(f"A club already has the slug {slug!r}; pass --slug")
        User = get_user_model()
        password = None
        with transaction.atomic():
            user = User.objects.filter(username=manager).first()
            if user is None:
                password = secrets.token_urlsafe(12)
                user = User.objects.create_user(manager, email=email, password=password)
            club = Club.objects.create(name=name, slug=slug, is_public=not private)
            Membership.objects.create(club=club, user=user, role=Role.MANAGER)
            today = datetime.date.today()
            Season.objects.create(
                club=club,
                name=season or str(today.year),
                start_date=today.replace(month=1, day=1),
                rules={"preset": "fft"},
            )
        self.stdout.write(f"Created club {club.name} at /clubs/{club.slug}/ managed by {manager}")
        if password:
            self.stdout.write(f"New user {manager}, password: {password} (change it after login)")
