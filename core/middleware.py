"""Security headers Django 5.2 does not set by itself.

``SecurityHeadersMiddleware`` adds a Content-Security-Policy (``CSP``: scripts and
styles from the site's own files only, so no inline ``<script>``, ``on…=``
handler, ``<style>`` or ``style=`` attribute works: page data goes in ``data-``
attributes or ``json_script``, whose ``application/json`` is not executed) and a
Permissions-Policy denying the browser features the site never uses. A view
that already set either header keeps its own. The 500 page, which must work
without static files, keeps its inline styles (never scripts).

``RejectNulMiddleware`` answers 400 to a query string holding a NUL character:
no parameter takes one, and PostgreSQL refuses to compare one (a filter's
lookup was a 500). Forms refuse a NUL themselves, each with its message
(Django's ``CharField`` validator; choice and number fields do not match it). Under
the paths of ``settings.JSON_ERROR_PATHS`` (the JSON API) the refusal is the API's
documented body, ``{"error": {"code", "message"}}``, not the HTML page.
"""

from django.conf import settings
from django.http import JsonResponse
from django.utils.translation import gettext as _

from core.exports import bad_request

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'self'",
        "object-src 'none'",
    ]
)
CSP_ERROR_PAGE = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
        "interest-cohort",
    )
)


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = CSP_ERROR_PAGE if response.status_code >= 500 else CSP
        response.headers.setdefault("Content-Security-Policy", policy)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


class RejectNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.META.get("QUERY_STRING", "") or _has_nul(request.GET):
            if request.path.startswith(tuple(getattr(settings, "JSON_ERROR_PATHS", ()))):
                message = _("A request may not hold a NUL character.")
                return JsonResponse({"error": {"code": "invalid", "message": message}}, status=400)
            return bad_request(request)
        return self.get_response(request)


def _has_nul(data) -> bool:
    try:
        items = data.lists()
    except Exception:  # an unreadable body: the view answers it
        return False
    return any("\x00" in key or any("\x00" in v for v in values) for key, values in items)
