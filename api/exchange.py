"""The results file's JSON Schema, as published at ``/static/api/results.schema.json``.

``results_schema()`` makes it from the typed shape the API answers with
(``api.schemas.ResultsFile``); ``tests/api/test_exchange.py`` fails when the published
file is not what it makes (write it again with
``python -c "import api.exchange as e; e.write()"`` under Django's settings).
"""

import json
from pathlib import Path

from django.conf import settings

from api.schemas import RESULTS_FORMAT, RESULTS_VERSION, ResultsFile

PUBLISHED = "api/results.schema.json"


def results_schema() -> dict:
    schema = ResultsFile.model_json_schema(mode="serialization")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"/static/{PUBLISHED}",
        "title": f"{RESULTS_FORMAT}, version {RESULTS_VERSION}",
        **{k: v for k, v in schema.items() if k != "title"},
    }


def text() -> str:
    return json.dumps(results_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write() -> Path:
    path = Path(settings.STATICFILES_DIRS[0]) / PUBLISHED
    path.write_text(text(), encoding="utf-8")
    return path
