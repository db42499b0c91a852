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
# missing Docker engine fails them instead of skipping.
test: build
	-$(BIN) image
	$(GO) test -count=1 -timeout 30m $(PKGS)

clean:
	rm -rf bin
