"""The user guide (``docs/``, built by ``make guide`` into ``static/guide/``) and the help
link every page carries to the guide's section about it, in the page's language.

``SECTIONS`` maps a URL's view name (``namespace:name``), else its namespace, to a page
of the guide and an anchor; ``tests/test_guide.py`` checks that every URL of the site
finds a section that exists in both languages.
"""

from django.conf import settings
from django.http import HttpResponseRedirect
from django.utils.translation import get_language

#: The guide's pages, under STATIC_URL; French ones under ``fr/``.
ROOT = "guide/"
#: Languages the guide is written in; the first is its default (at the guide's root).
LANGUAGES = ("en", "fr")

#: View name or namespace → "page.html#anchor". The most precise key wins.
SECTIONS = {
    "": "index.html#roles",
    "home": "index.html#roles",
    "club_create": "first-evening.html#create-the-club",
    "signup": "first-evening.html#first-login",
    "signup_confirm": "first-evening.html#first-login",
    "signup_resend": "first-evening.html#first-login",
    "login": "first-evening.html#first-login",
    "profile": "player.html#my-account",
    "email_change": "player.html#my-account",
    "email_confirm": "player.html#my-account",
    "password_change": "player.html#my-account",
    "password_change_done": "player.html#my-account",
    "password_reset": "player.html#my-account",
    "password_reset_done": "player.html#my-account",
    "password_reset_confirm": "player.html#my-account",
    "password_reset_complete": "player.html#my-account",
    "token_create": "api.html#tokens",
    "token_revoke": "api.html#tokens",
    "invitation": "club-manager.html#roles",
    "restore": "club-manager.html#backups",
    "restore_job": "club-manager.html#backups",
    "restore_status": "club-manager.html#backups",
    "api": "api.html#api",
    "admin": "deployment.html#make-serve",
    "clubs": "scorer.html#an-evening",
    "clubhouse": "club-manager.html#players",
    "clubhouse:history": "club-manager.html#history",
    "manage": "club-manager.html#roles",
    "manage:welcome": "first-evening.html#open-the-season",
    "manage:seasons": "house-rules.html#house-rules",
    "manage:season": "house-rules.html#ranking",
    "scoresheet": "scorer.html#an-evening",
    "scoresheet:sheet_create": "first-evening.html#open-a-sheet",
    "scoresheet:hand": "scorer.html#corrections",
    "scoresheet:hand_create": "scorer.html#a-hand",
    "scoresheet:hand_edit": "scorer.html#corrections",
    "scoresheet:hand_delete": "scorer.html#corrections",
    "scoresheet:hand_restore": "scorer.html#corrections",
    "scoresheet:sheet_close": "scorer.html#closing",
    "scoresheet:sheet_reopen": "scorer.html#closing",
    "scoresheet:sheet_print": "scorer.html#printing",
    "scoresheet:sheet_blank": "scorer.html#printing",
    "scoresheet:sheet_export": "scorer.html#exports",
    "standings": "scorer.html#exports",
    "standings:ratings": "player.html#ratings",
    "standings:season_ratings": "player.html#ratings",
    "stats": "player.html#statistics",
    "transfer": "club-manager.html#imports",
    "transfer:backup": "club-manager.html#backups",
    "transfer:season_csv": "scorer.html#exports",
    "transfer:season_jsonl": "scorer.html#exports",
    "transfer:season_xlsx": "scorer.html#exports",
    "tournaments": "organiser.html#free-deal-day",
    "tournaments:round_draw": "organiser.html#draw",
    "tournaments:schedule": "organiser.html#draw",
    "tournaments:close": "organiser.html#closing",
    "tournaments:round_close": "organiser.html#closing",
    "tournaments:screen": "organiser.html#screen",
    "tournaments:route_cards": "organiser.html#printing",
    "tournaments:table_cards": "organiser.html#table-phones",
    "tournaments:table": "organiser.html#table-phones",
    "tournaments:table_totals": "organiser.html#table-phones",
    "tournaments:duplicate": "organiser.html#duplicate-event",
    "tournaments:duplicate_create": "organiser.html#duplicate-event",
    "tournaments:duplicate_edit": "organiser.html#duplicate-event",
    "tournaments:duplicate_draw": "organiser.html#movement",
    "tournaments:duplicate_movement": "organiser.html#movement",
    "tournaments:duplicate_etuis": "organiser.html#etuis",
    "tournaments:duplicate_etuis_by_hand": "organiser.html#etuis",
    "tournaments:duplicate_deal_sheets": "organiser.html#etuis",
    "tournaments:duplicate_route_cards": "organiser.html#etuis",
    "tournaments:duplicate_table_cards": "organiser.html#etuis",
    "tournaments:duplicate_ranking": "organiser.html#barometer",
    "tournaments:duplicate_travellers": "organiser.html#barometer",
    "tournaments:duplicate_traveller": "organiser.html#barometer",
    "tournaments:duplicate_screen": "organiser.html#screen",
    "tournaments:duplicate_arbitre": "organiser.html#arbitre",
    "tournaments:duplicate_decision_remove": "organiser.html#arbitre",
    "table": "organiser.html#table-phones",
    "leagues": "league.html#league",
    "leagues:list": "league.html#create",
    "leagues:licences": "league.html#series",
    "leagues:held_licences": "league.html#series",
    "leagues:season_edit": "league.html#seasons-and-scales",
    "leagues:event": "league.html#events",
    "leagues:event_edit": "league.html#events",
    "leagues:ranking": "league.html#seasons-and-scales",
    "leagues:ratings": "player.html#ratings",
    "leagues:person": "player.html#statistics",
    "leagues:mine": "player.html#my-account",
    "leagues:link": "league.html#series",
    "league_club": "league.html#members",
    "league_club:guests": "league.html#series",
    "competitions": "league.html#team-championship",
    "competitions:match": "league.html#match-day",
    "competitions:start": "league.html#match-day",
    "competitions:results": "league.html#match-day",
    "competitions:claim_decide": "league.html#claims",
    "competitions:screen": "league.html#match-day",
    "captain": "league.html#match-day",
    "captain:claim": "league.html#claims",
}


def section(view_name: str) -> str:
    """The guide's "page.html#anchor" for a view name (``namespace:name``)."""
    key = view_name or ""
    while True:
        if key in SECTIONS:
            return SECTIONS[key]
        if ":" not in key:
            return SECTIONS[""]
        key = key.rsplit(":", 1)[0]


def language_prefix(language: str | None) -> str:
    code = (language or LANGUAGES[0]).split("-")[0]
    return "" if code not in LANGUAGES or code == LANGUAGES[0] else f"{code}/"


def url(target: str, language: str | None = None) -> str:
    """The guide's URL of "page.html#anchor" in a language (the page's by default)."""
    return f"{settings.STATIC_URL}{ROOT}{language_prefix(language or get_language())}{target}"


def help_link(request):
    """Context processor: ``help_url``, the guide's section about the page shown."""
    match = getattr(request, "resolver_match", None)
    return {"help_url": url(section(match.view_name if match else ""))}


def guide(request):
    """``/guide/``: the guide's first page in the page's language."""
    return HttpResponseRedirect(url("index.html"))
