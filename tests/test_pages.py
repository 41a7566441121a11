"""Error pages and the page skeleton, without a browser."""

import pytest
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.utils import translation
from django.views import defaults


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "text"), [("en", "Page not found"), ("fr", "Page introuvable")]
)
def test_404_page_in_the_browser_language(client, language, text):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert text in response.text
    assert f'<html lang="{language}"' in response.text


def test_500_page_needs_no_context():
    html = render_to_string("500.html")
    assert "Something went wrong" in html
    assert "/static/" not in html  # works even when static files are what broke


def test_500_handler_renders_the_static_page(rf):
    with translation.override("fr"):
        response = defaults.server_error(rf.get("/"))
    assert response.status_code == 500
    assert "Une erreur s’est produite" in response.text


@pytest.mark.django_db
def test_403_page(rf):
    with translation.override("en"):
        response = defaults.permission_denied(rf.get("/clubs/x/"), PermissionDenied())
    assert response.status_code == 403
    assert "Access denied" in response.text
    assert "/accounts/login/?next=/clubs/x/" in response.text


@pytest.mark.django_db
def test_base_layout_forms_post_with_csrf(client, user):
    client.force_login(user)
    html = client.get("/").text
    assert '<form action="/accounts/logout/" method="post">' in html
    assert 'action="/i18n/setlang/" method="post"' in html
    assert html.count('name="csrfmiddlewaretoken"') == 2
