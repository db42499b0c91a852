# The judge's everyday commands. Everything goes through the judge binary, which
# talks to the Docker engine through its API.
GO ?= go
BIN := bin/judge
PKGS := ./games/... ./sandbox/... ./results/... ./judge/...

.PHONY: build image run screen test bench clean

build:
	$(GO) build -o $(BIN) ./judge

# The bots' runtime image, built from Debian's packages (no registry needed);
# nothing happens when it already exists.
image: build
	$(BIN) image

# The whole contest: every game folder of submissions/, then the standings.
run: image
	$(BIN) run

# The screen for the classroom's projector: standings, crosstable, replays,
# live games and the presentation mode, from the results database.
screen: build
	$(BIN) serve

# Docker tests build the image themselves when it is missing; under CI=true a
# missing Docker engine fails them instead of skipping. One package at a time
# (-p 1): the Docker suites measure time limits and clean up dead judges'
# containers, and two of them at once on a small machine would disturb both.
test: build
	-$(BIN) image
	$(GO) test -p 1 -count=1 -timeout 30m $(PKGS)

# What the judge costs: the Docker sandbox against plain processes, in one
# table with the targets (a few minutes), then the Go benchmarks of the
# per-move round trip, container start and removal, and the standings.
bench: image
	$(BIN) bench --report docs/performance.md
	$(GO) test -run '^$$' -bench 'Ask' -benchtime 500x ./sandbox/
	$(GO) test -run '^$$' -bench 'StartClose|Phases' -benchtime 20x ./sandbox/
	$(GO) test -run '^$$' -bench Standings10k ./results/

clean:
	rm -rf bin
