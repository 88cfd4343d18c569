# stagger's commands. `make demo` and `make test` install what they need first (scripts/setup.sh).
GO          ?= go
ARTIFACTS   ?= artifacts
SCREENSHOT  := $(ARTIFACTS)/demo-window.png

STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck

.PHONY: setup demo test vet staticcheck unit race smoke bench validate clean

setup:
	@./scripts/setup.sh

demo: setup
	$(GO) run ./demo

test: setup vet staticcheck unit race smoke

vet:
	$(GO) vet ./...

staticcheck:
	$(STATICCHECK) ./...

unit:
	$(GO) test -count=1 ./...

# The race detector on the parallel paths: the island solves on the worker pool.
race:
	$(GO) test -race -count=1 -run 'Race' ./physics/

# The real window under Xvfb: the demo renders for about two seconds, saves a screenshot (kept in
# $(ARTIFACTS)/), and the test fails if the process failed or the picture is one colour; then one
# scripted throw per level must move the level.
smoke:
	@mkdir -p $(ARTIFACTS)
	STAGGER_WINDOW_TEST=1 STAGGER_SCREENSHOT=$(abspath $(SCREENSHOT)) \
		xvfb-run -a -s "-screen 0 1280x800x24" $(GO) test -count=1 -run 'TestWindowScreenshot|TestWindowStartScreen|TestWindowThrows' -v ./demo/

# Every benchmark table and the runner on every scene, written to BENCHMARKS.md and bench/*.csv.
bench: setup
	$(GO) run ./bench/report

# The long validation runs (ten minutes of simulated time for the towers, card house and arch;
# pyramid 30), printed as a table; not part of `make test`.
validate: setup
	$(GO) run ./demo/validate

clean:
	rm -rf $(ARTIFACTS)
