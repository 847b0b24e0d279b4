# `make test` is the one command that runs every test on a fresh Debian
# machine: it installs and starts the services the tests need, checks
# formatting, vets, runs staticcheck, then runs all tests with the race
# detector. Nothing skips: a test that cannot reach a service it needs
# fails.

GO              ?= go
BIN             := $(CURDIR)/.bin
REDIS_PORT      ?= 6391
STATICCHECK     := honnef.co/go/tools/cmd/staticcheck@v0.8.2
BENCHSTAT       := golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da

export PATH := $(PATH):/usr/games
export RANK_TEST_REDIS_URL        ?= redis://127.0.0.1:$(REDIS_PORT)/0
# The store server and the Redis Cluster .ci/services.sh starts.
export RANK_TEST_FERRETPG_URI     ?= mongodb://127.0.0.1:27018/
export RANK_TEST_REDIS_CLUSTER_URL ?= redis://127.0.0.1:7001?addr=127.0.0.1:7002&addr=127.0.0.1:7003

.PHONY: run test services check fmt vet staticcheck unit bench build tools

run:
	$(GO) run ./cmd/rankd

build:
	$(GO) build -o $(BIN)/ ./cmd/...

test: services check unit

services:
	RANK_TEST_REDIS_PORT=$(REDIS_PORT) ./.ci/services.sh

check: fmt vet staticcheck

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

$(BIN)/staticcheck:
	GOBIN=$(BIN) $(GO) install $(STATICCHECK)

$(BIN)/benchstat:
	GOBIN=$(BIN) $(GO) install $(BENCHSTAT)

tools: $(BIN)/staticcheck $(BIN)/benchstat

staticcheck: $(BIN)/staticcheck
	$(BIN)/staticcheck ./...

unit:
	$(GO) test -race -timeout 20m ./...

bench: $(BIN)/benchstat
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./... | tee /tmp/rank-bench.txt
	$(BIN)/benchstat /tmp/rank-bench.txt
