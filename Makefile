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

.PHONY: setup run test lint format messages bench serve

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable
	$(PY) manage.py load_demo
	# the background worker (backups, exports, restores) beside the server, stopped with it
	$(PY) manage.py db_worker --no-reload & worker=$$!; \
	trap 'kill $$worker' EXIT INT TERM; \
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

# --dist worksteal: a worker with nothing left takes tests queued for the other, so the
# long browser tests do not leave one core idle at the end
test: setup
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
serve: setup
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
