# stagger's commands. `make demo` and `make test` install what they need first (scripts/setup.sh).
GO          ?= go
ARTIFACTS   ?= artifacts
SCREENSHOT  := $(ARTIFACTS)/demo-window.png
WEBDIR      := $(ARTIFACTS)/web
WEBADDR     ?= 127.0.0.1:8080

STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck

.PHONY: setup demo web test vet staticcheck unit race smoke browser bench validate clean

setup:
	@./scripts/setup.sh

demo: setup
	$(GO) run ./demo

# The same game in a browser: builds it for js/wasm into $(WEBDIR) and serves it on $(WEBADDR)
# (loopback only), printing the address to open.
web:
	$(GO) run ./cmd/webserve -addr $(WEBADDR) -dir $(WEBDIR)

test: setup vet staticcheck unit race smoke browser

vet:
	$(GO) vet ./...

staticcheck:
	$(STATICCHECK) ./...

# The browser test runs in its own target below.
unit:
	$(GO) test -count=1 -skip '^TestBrowser' ./...

# The race detector on the parallel paths: the island solves on the worker pool.
race:
	$(GO) test -race -count=1 -run 'Race' ./physics/

# The real window under Xvfb: the demo renders for about two seconds, saves a screenshot (kept in
# $(ARTIFACTS)/), and the test fails if the process failed or the picture is one colour; then one
# scripted throw per level must move the level, and the split view must move both halves.
smoke:
	@mkdir -p $(ARTIFACTS)
	STAGGER_WINDOW_TEST=1 STAGGER_SCREENSHOT=$(abspath $(SCREENSHOT)) \
		xvfb-run -a -s "-screen 0 1280x800x24" $(GO) test -count=1 -run 'TestWindowScreenshot|TestWindowStartScreen|TestWindowThrows|TestWindowKnocks|TestWindowSplit|TestWindowSingleSample|TestWindowInput' -v ./demo/

# The browser build end to end: the wasm built and served on a loopback port, headless Chromium
# (software WebGL) opens the level list and the first level, a click throws, the screenshots (kept
# in $(ARTIFACTS)/) must show it, and the console must stay free of errors. A missing browser fails.
browser:
	@mkdir -p $(ARTIFACTS)
	STAGGER_BROWSER_TEST=1 STAGGER_BROWSER_ARTIFACTS=$(abspath $(ARTIFACTS)) \
		$(GO) test -count=1 -run '^TestBrowser' -v ./demo/web/

# Every benchmark table and the runner on every scene, written to BENCHMARKS.md and bench/*.csv.
bench: setup
	$(GO) run ./bench/report

# The long validation runs (ten minutes of simulated time for the towers, card house and arch;
# pyramid 30), printed as a table; not part of `make test`.
validate: setup
	$(GO) run ./demo/validate

clean:
	rm -rf $(ARTIFACTS)
