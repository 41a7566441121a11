"""Every refusal of the API as ``{"error": {"code", "message", "field"}}`` with a 4xx.

A service's refusal (``core.errors.ServiceError``: ``LedgerError``, ``ClubError``…)
keeps its code and translated message; ``forbidden`` is a 403, a sheet or hand in
the wrong state (closed, deleted) a 409, any other refusal a 400. The API's own:
``unauthorized`` (401: no token where one is needed, or a token unknown or revoked),
``token_read_only`` and ``forbidden`` (403), ``not_found`` (404),
``idempotency_key_invalid`` (400), ``idempotency_key_taken`` (409: another user's
key), ``invalid`` (422: the request's shape; ``detail`` says where), ``invalid_json``
(400: a body that is not JSON), ``too_large`` (413), ``throttled`` (429); any other refusal of the
framework keeps its status with the code ``bad_request``.
"""

from django.core.exceptions import (
    ObjectDoesNotExist,
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.http import Http404
from django.utils.translation import gettext as _
from ninja.errors import AuthenticationError, HttpError, ValidationError

from api.auth import Throttled
from core.errors import ServiceError

#: A service's codes that say "not now, in this state" rather than "wrong input".
CONFLICTS = {"sheet_closed", "sheet_deleted", "hand_deleted", "hand_not_deleted", "conflict"}


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, str(message), field


def body(code, message, field=None, detail=None) -> dict:
    error = {"code": code, "message": str(message)}
    if field:
        error["field"] = field
    if detail is not None:
        error["detail"] = detail
    return {"error": error}


def not_found():
    return ApiError(404, "not_found", _("Not found."))


def install(api) -> None:
    """Register the handlers on the ``NinjaAPI``."""

    def answer(request, status, payload):
        return api.create_response(request, payload, status=status)

    @api.exception_handler(ApiError)
    def api_error(request, exc):
        return answer(request, exc.status, body(exc.code, exc.message, exc.field))

    @api.exception_handler(HttpError)
    def http_error(request, exc):
        # the framework's own refusals (a body that is not JSON…) in the documented shape
        status = exc.status_code
        if status == 400:
            return answer(request, 400, body("invalid_json", _("The body is not valid JSON.")))
        return answer(request, status, body("bad_request", str(exc)))

    @api.exception_handler(SuspiciousOperation)
    def suspicious(request, exc):
        if isinstance(exc, RequestDataTooBig):
            return answer(request, 413, body("too_large", _("The request is too large.")))
        return answer(request, 400, body("bad_request", _("The request is not valid.")))

    @api.exception_handler(ServiceError)
    def service_error(request, exc):
        status = 403 if exc.code == "forbidden" else 409 if exc.code in CONFLICTS else 400
        return answer(request, status, body(exc.code, exc.message, exc.field))

    @api.exception_handler(AuthenticationError)
    def unauthorized(request, exc):
        message = _("A valid API token is needed: Authorization: Bearer <token>.")
        response = answer(request, 401, body("unauthorized", message))
        response["WWW-Authenticate"] = 'Bearer realm="api"'
        return response

    @api.exception_handler(Throttled)
    def throttled(request, exc):
        message = _("Too many requests with this token: wait a minute.")
        response = answer(request, 429, body("throttled", message))
        response["Retry-After"] = "60"
        return response

    @api.exception_handler(Http404)
    def missing(request, exc):
        return answer(request, 404, body("not_found", _("Not found.")))

    @api.exception_handler(ObjectDoesNotExist)
    def gone(request, exc):
        return answer(request, 404, body("not_found", _("Not found.")))

    @api.exception_handler(PermissionDenied)
    def denied(request, exc):
        return answer(request, 403, body("forbidden", _("You may not do this.")))

    @api.exception_handler(ValidationError)
    def invalid(request, exc):
        detail = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))} for e in exc.errors]
        return answer(request, 422, body("invalid", _("The request is not valid."), None, detail))
