"""The schema at /api/openapi.json (OpenAPI 3.1, every operation under /api/v1/, the
bearer token declared) and the documentation page at /api/docs, from the site's own
static files: no CDN, no inline script (the Content-Security-Policy holds)."""

import re

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_the_schema_is_openapi_3_1(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"] == "3.1.0"
    assert schema["info"]["version"] == "1"
    assert schema["paths"] and all(path.startswith("/api/v1/") for path in schema["paths"])
    assert schema["components"]["securitySchemes"]["TokenAuth"] == {
        "type": "http",
        "scheme": "bearer",
    }
    hands = schema["paths"]["/api/v1/clubs/{slug}/sheets/{sheet_id}/hands"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in hands["parameters"])
    assert {"201", "400", "401", "403", "404", "409", "422", "429"} <= set(hands["responses"])


def test_the_docs_page_uses_no_cdn_and_no_inline_script(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert "script-src 'self'" in response["Content-Security-Policy"]
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(src.startswith("/static/") for src in sources), sources
    for src in sources:
        assert finders.find(src.removeprefix("/static/")), src
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    inline = [body for attrs, body in scripts if "src=" not in attrs and body.strip()]
    assert all('type="application/json"' in attrs for attrs, body in scripts if body.strip())
    assert len(inline) == 1  # the settings, as JSON (not executed)
