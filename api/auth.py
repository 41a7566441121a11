"""Who calls the API: a personal token (``Authorization: Bearer tl_…``) or nobody.

``TokenAuth`` answers every operation: without the header the caller is anonymous
(``Caller(user=AnonymousUser, token=None)``: public clubs' reads, as the pages);
with it, the token must be live (``clubs.tokens.authenticate``: one query with its
user and club), else 401 at once: a revoked token opens nothing, not even a public
club's page. No session cookie is read, so no CSRF check is needed (a browser never
sends the header by itself). Each token is throttled (``clubs.tokens.hit``: at most
``settings.API_RATE`` requests a minute, 429 past it; counted on the token's row, one
UPDATE, rather than in the database cache, whose add-or-increment took 12 queries).

The caller's rights are the pages' (``clubs.permissions``): its user's role in the
club, read at each request, and never beyond the token's club and scope. Who the
token's reads name is asked of ``clubs.visibility`` as for a member of the token's
club (``visibility.reading_for``), not for everything its user may read elsewhere.
"""

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from ninja import NinjaAPI
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer

from clubs import tokens, visibility
from clubs.models import ApiToken


@dataclass
class Caller:
    user: object
    token: ApiToken | None = None

    def __bool__(self):  # ninja lets a request in when its auth answers something true
        return True


class Throttled(Exception):
    """The token has used up its requests for now (429)."""


class TokenAuth(HttpBearer):
    def __call__(self, request):
        header = request.headers.get(self.header)
        if header is None:
            return Caller(AnonymousUser())
        scheme, _space, text = header.partition(" ")
        if scheme.lower() != "bearer":
            raise AuthenticationError
        return self.authenticate(request, text.strip())

    def authenticate(self, request, token):
        found = tokens.authenticate(token)
        if found is None:
            raise AuthenticationError
        if not tokens.hit(found, settings.API_RATE):
            raise Throttled
        # the services' actor, the audit's "by"; the visibility rule asks as a member
        # of the token's club
        request.user = visibility.reading_for(found.user, found.club_id)
        return Caller(found.user, found)


class TokenOptionalAPI(NinjaAPI):
    """The API whose schema says what ``TokenAuth`` does: a read takes a token or none
    (``security: [{}, {"TokenAuth": []}]``), a write needs one, and so does a read
    marked ``openapi_extra={"x-token-needed": True}`` (a league manager's list)."""

    def get_openapi_schema(self, **kwargs):
        schema = super().get_openapi_schema(**kwargs)
        for operations in schema["paths"].values():
            for method, operation in operations.items():
                security = operation.get("security")
                needed = operation.pop("x-token-needed", False)
                if method == "get" and security and {} not in security and not needed:
                    operation["security"] = [{}, *security]
        return schema
