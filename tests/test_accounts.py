"""Login throttling, production settings and starting a club."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from clubs.models import Club, Membership, Season

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_login_is_throttled_after_five_failures(client, settings):
    get_user_model().objects.create_user("anna", password="right-horse-battery")
    url = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(url, {"username": "anna", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    response = client.post(url, {"username": "anna", "password": "wrong"})
    assert response.status_code == 429
    # locked out: even the right password is refused for now
    response = client.post(url, {"username": "anna", "password": "right-horse-battery"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_successful_login_resets_failures(client, settings):
    get_user_model().objects.create_user("anna", password="right-horse-battery")
    url = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post(url, {"username": "anna", "password": "wrong"})
    response = client.post(url, {"username": "anna", "password": "right-horse-battery"})
    assert response.status_code == 302
    client.post(reverse("logout"))
    response = client.post(url, {"username": "anna", "password": "wrong"})
    assert response.status_code == 200


def production_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.setdefault("DATABASE_URL", "sqlite://:memory:")  # required; these never open it
    env["DJANGO_STATIC_ROOT"] = str(ROOT / "staticfiles")
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="x7Jq-3vNw!pL0sZ2eR9tYb4uK8mC1hF6gD5aQ0oW2iE7rT3yU9pA",
        DJANGO_ALLOWED_HOSTS="tarot.example.org",
        **extra,
    )
    return env


def test_check_deploy_is_clean_in_production():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = production_env()
    del env["DJANGO_SECRET_KEY"]
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def production_settings(*expressions) -> list[str]:
    """What each expression over the settings (``s``) prints in production, read in a
    fresh process (the settings module reads the environment once)."""
    code = f"from django.conf import settings as s;print({', '.join(expressions)})"
    result = subprocess.run(
        [sys.executable, "-c", f"import django;django.setup();{code}"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_production_security_settings():
    assert production_settings(
        "s.SESSION_COOKIE_SECURE",
        "s.CSRF_COOKIE_SECURE",
        "s.SECURE_SSL_REDIRECT",
        "s.SECURE_HSTS_SECONDS >= 31536000",
        "s.X_FRAME_OPTIONS",
        "s.DEBUG",
        "'benchmarks' in s.INSTALLED_APPS",  # development tools, not shipped
    ) == ["True", "True", "True", "True", "DENY", "False", "False"]


@pytest.mark.parametrize("name", ["DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "DJANGO_STATIC_ROOT"])
def test_production_refuses_to_start_without_its_environment(name):
    env = production_env()
    del env[name]
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert f"{name} must be set in production" in result.stderr


@pytest.mark.django_db
def test_create_club_with_new_manager():
    out = StringIO()
    call_command("create_club", "Tarot Club de Chambéry", "--manager", "marie", stdout=out)
    club = Club.objects.get(slug="tarot-club-de-chambery")
    membership = Membership.objects.get(club=club)
    assert membership.user.username == "marie" and membership.role == "manager"
    assert club.is_public
    assert Season.objects.get(club=club).rules == {"preset": "fft"}
    password = out.getvalue().split("password: ")[1].split()[0]
    assert membership.user.check_password(password)


@pytest.mark.django_db
def test_create_club_existing_user_private_and_duplicate_slug():
    user = get_user_model().objects.create_user("paul", password="pw-not-printed-1")
    out = StringIO()
    call_command("create_club", "Les Excusés", "--manager", "paul", "--private", stdout=out)
    club = Club.objects.get(slug="les-excuses")
    assert not club.is_public
    assert "password" not in out.getvalue()
    assert user.memberships.get().role == "manager"
    with pytest.raises(CommandError, match="slug"):
        call_command("create_club", "Les Excusés", "--manager", "paul", stdout=StringIO())


def test_collectstatic_in_production(tmp_path):
    """Hashed static files build (a CSS url() to a missing file would fail here)."""
    code = (
        "import django;from django.conf import settings;"
        f"settings.STATIC_ROOT={str(tmp_path)!r};django.setup();"
        "from django.core.management import call_command;"
        "call_command('collectstatic', interactive=False, verbosity=0);"
        "from django.templatetags.static import static;print(static('css/app.css'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("/static/css/app.") and result.stdout.strip() != (
        "/static/css/app.css"
    )


@pytest.mark.django_db
@pytest.mark.parametrize("allowed", [True, False])
def test_the_login_page_links_to_sign_up_only_when_it_is_allowed(client, settings, allowed):
    settings.ALLOW_SIGNUP = allowed
    html = client.get(reverse("login")).content.decode()
    link = f'<a href="{reverse("signup")}">Create an account</a>'
    assert (link in html) is allowed
    # the page it leads to is there exactly when the link is
    assert client.get(reverse("signup")).status_code == (200 if allowed else 404)


@pytest.mark.django_db
def test_a_logged_in_user_is_not_offered_a_sign_up(client, settings):
    settings.ALLOW_SIGNUP = True
    client.force_login(get_user_model().objects.create_user("anna", password="x-long-pass-7"))
    html = client.get(reverse("login") + "?next=/admin/").content.decode()
    assert reverse("signup") not in html
