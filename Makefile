# The two commands: `make run` and `make test`. Both install what is missing first.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

# What the service needs to build and run, and what the tests use besides.
RUN_PACKAGES  := pkg-config libqrencode-dev libpng-dev libpq-dev libcurl4-openssl-dev postgresql postgresql-contrib zbar-tools
TEST_PACKAGES := chromium chromium-driver poppler-utils python3-venv python3-aiosmtpd postgresql-15-auto-failover pg-auto-failover-cli

DATA_DIR ?= .fulfilment/postgres
HOST ?= 127.0.0.1
PORT ?= 8080

.PHONY: run test lint format build deps deps-test clean bench

run: deps build
	.build/debug/fulfilment serve --demo --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR)

test: deps deps-test lint
	scripts/test
	scripts/contract-fuzz
	scripts/form-fuzz

# One format (`.swift-format`): `make format` rewrites, `make test` refuses what it would change.
lint:
	swift format lint --strict --recursive Sources Tests Package.swift

format:
	swift format format --in-place --recursive Sources Tests Package.swift

build:
	swift build --product fulfilment

deps:
	@scripts/install-packages $(RUN_PACKAGES)

deps-test:
	@scripts/install-packages $(TEST_PACKAGES)

bench: deps
	swift run -c release qr-bench
	swift run -c release pick-bench

clean:
	rm -rf .build .fulfilment
