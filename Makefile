# `make run`: set up, migrate, load the demo club, serve on 127.0.0.1:$(PORT) (SQLite;
# `make run PORT=8001` when 8000 is taken).
# `make test`: set up and run the whole suite (DATABASE_URL picks PostgreSQL).
VENV   ?= .venv
PYTHON ?= python3
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed
# the suite runs on this many processes (pytest-xdist); 1 for a plain run
TEST_WORKERS ?= 2
# more pytest options for `make test` (CI: -m 'not browser' for its PostgreSQL pass)
PYTEST_ARGS ?=
# `make run` serves on this port
PORT ?= 8000

.PHONY: setup run test lint format messages bench serve guide lock

# Installed from the lock file (the versions the suite passed with), then the project
# itself; `make lock` writes the lock file again from pyproject.toml's bounds.
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet -e '.[dev]'
	( echo "# pip install -r requirements.lock: every dependency, dev tools included, pinned."; \
	  echo "# Written by 'make lock' from pyproject.toml's bounds; do not edit by hand."; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable --exclude tarot-ledger ) > requirements.lock
	rm -rf .lock-venv

# The user guide (docs/, MkDocs): built strictly (a broken link or anchor fails) into
# static/guide/, which the app serves with its static files; again when a source changes.
GUIDE_SOURCES = $(shell find docs -type f 2>/dev/null)
static/guide/index.html: $(STAMP) $(GUIDE_SOURCES)
	$(VENV)/bin/mkdocs build --quiet --strict -f docs/mkdocs.yml
	touch $@

guide: static/guide/index.html

setup: $(STAMP)

run: setup guide
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable
	$(PY) manage.py load_demo
	# the background worker (backups, exports, restores) beside the server, stopped with it
	$(PY) manage.py db_worker --no-reload & worker=$$!; \
	trap 'kill $$worker' EXIT INT TERM; \
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

# --dist worksteal: a worker with nothing left takes tests queued for the other, so the
# long browser tests do not leave one core idle at the end
test: setup guide
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

messages: setup
	$(PY) manage.py makemessages -l fr --ignore '.venv/*' --no-obsolete
	$(PY) manage.py compilemessages --ignore '.venv/*'

# `make serve`: production serving under config.settings.production (set
# DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL…): gunicorn, WORKERS
# processes (2 × cores by default) on BIND, and one background worker (db_worker).
# TIMEOUT: a request's longest time (the long work runs in the background; the
# slowest request left is a 2 MB upload's preview, 8 s at 19,200 hands).
WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
BIND    ?= 127.0.0.1:8000
TIMEOUT ?= 60
serve: export DJANGO_SETTINGS_MODULE = config.settings.production
serve: export DJANGO_STATIC_ROOT ?= $(CURDIR)/staticfiles
serve: setup guide
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput
	$(PY) manage.py db_worker --no-reload & worker=$$!; \
	trap 'kill $$worker' EXIT INT TERM; \
	$(VENV)/bin/gunicorn config.wsgi --workers $(WORKERS) --bind $(BIND) --timeout $(TIMEOUT) \
		--max-requests 2000 --max-requests-jitter 200

bench: setup
	$(PY) manage.py bench_scoring
	$(PY) manage.py bench_standings --hands 10000 1000000
	$(PY) manage.py bench_pages --hands 10000 1000000
	$(PY) manage.py bench_import --hands 10000 100000
	$(PY) manage.py bench_backup --hands 10000 100000
	$(PY) manage.py bench_ratings --hands 100000 1000000
	$(PY) manage.py loadtest --think 0 1
