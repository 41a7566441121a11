"""``manage.py create_league "Comité du Rhône" --slug comite --manager USERNAME [--private]``."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.text import slugify

from leagues import services


class Command(BaseCommand):
    help = "Create a league with its first manager (who then invites the clubs)."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--slug")
        parser.add_argument("--manager", required=True)
        parser.add_argument("--private", action="store_true")

    def handle(self, *args, name, slug, manager, private, **options):
        user = get_user_model().objects.filter(username=manager).first()
        if user is None:
            raise CommandError(f"no login {manager!r}")
        try:
            league = services.create_league(
                name, slug or slugify(name)[:60], is_public=not private, managers=[user]
            )
        except services.LeagueError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"league {league.slug} created, managed by {user.username}")
