"""Fixtures shared by the whole suite. Browser fixtures live in tests/browser/conftest.py."""

import pytest

#: The password of every user made by ``make_user``.
PASSWORD = "correct-horse-battery-42"


@pytest.fixture
def make_user(django_user_model):
    """Create a user: ``make_user("alice", email=..., is_staff=True)``; password ``PASSWORD``."""

    def make(username="alice", password=PASSWORD, **fields):
        fields.setdefault("email", f"{username}@example.org")
        return django_user_model.objects.create_user(username, password=password, **fields)

    return make


@pytest.fixture
def user(make_user):
    """A plain user "alice" (alice@example.org) with the password ``PASSWORD``."""
    return make_user()
