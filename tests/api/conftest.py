"""The API's fixtures: the club "rive" of ``tests/conftest.py`` with its seeded sheet,
a member beside its scorer and manager, and ``token(user, scope)`` (a token's text)."""

import pytest
from django.test import Client

from clubs import tokens
from clubs.models import Membership, Role


@pytest.fixture
def member(django_user_model, club):
    user = django_user_model.objects.create_user("member", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    return user


@pytest.fixture
def token(club):
    """``token(user, scope="read", club=club)``: a new token's text."""

    def make(user, scope="read", for_club=None):
        return tokens.create_token(club=for_club or club, name="test", scope=scope, actor=user)[1]

    return make


class Api:
    """A test client speaking JSON with an optional bearer token."""

    def __init__(self, token=None):
        self.client = Client()
        self.token = token

    def _headers(self, headers):
        out = dict(headers or {})
        if self.token:
            out["Authorization"] = f"Bearer {self.token}"
        return out

    def get(self, url, params=None, **headers):
        return self.client.get(url, params or {}, headers=self._headers(headers))

    def post(self, url, data=None, **headers):
        return self.client.post(
            url, data or {}, content_type="application/json", headers=self._headers(headers)
        )

    def put(self, url, data=None, **headers):
        return self.client.put(
            url, data or {}, content_type="application/json", headers=self._headers(headers)
        )

    def delete(self, url, **headers):
        return self.client.delete(url, headers=self._headers(headers))


@pytest.fixture
def api():
    return Api
