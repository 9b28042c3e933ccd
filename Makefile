# Numbo: `make run` serves the demo, `make test` runs the suite. Both set up
# what they need on a fresh machine (a virtualenv in .venv from requirements.lock).
PY ?= python3.11
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench messages clean

$(STAMP): requirements.lock pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	@touch $(STAMP)

# The single sign-on tests' OpenID Connect provider (tests/sso/provider.mjs): the
# versions package-lock.json pins, installed once; the tests run offline after.
SSO_PROVIDER := tests/sso/node_modules/oidc-provider/package.json
$(SSO_PROVIDER): tests/sso/package.json tests/sso/package-lock.json
	@command -v npm >/dev/null || { echo "The single sign-on tests need Node.js and npm: apt-get install -y nodejs npm"; exit 1; }
	cd tests/sso && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

locale/fr/LC_MESSAGES/django.mo: locale/fr/LC_MESSAGES/django.po | $(STAMP)
	$(BIN)/python manage.py compilemessages --ignore=.venv -v0 || true

run: $(STAMP)
	$(BIN)/python manage.py compilemessages --ignore=.venv -v0 2>/dev/null || true
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py load_demo --port $(PORT)
	$(BIN)/python manage.py runserver 0.0.0.0:$(PORT)

test: $(STAMP) $(SSO_PROVIDER)
	$(BIN)/ruff check .
	$(BIN)/python manage.py makemigrations --check --dry-run -v0
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python tests/bench/bench_engine.py

messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l fr --ignore=.venv --ignore=static --no-obsolete
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) var staticfiles tests/sso/node_modules
