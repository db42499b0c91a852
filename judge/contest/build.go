package contest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"botjudge/games/fault"
	"botjudge/sandbox"
)

// ErrNoBuilder means a compiled bot met a runner that cannot build it.
var ErrNoBuilder = errors.New("compiled bots (C, C++, Java, OCaml, a folder with build.sh) are built in the Docker sandbox only: run without --sandbox=none")

// Built folder and record, beside the staged copy they come from, so that
// Prune removes them with it.
const (
	builtName  = "built"
	recordName = "build.json"
)

// BuildSeat builds a seat's staged bot when it is a compiled one, once per
// content: the program and the compiler's messages are kept beside the
// staged copy, so that re-runs, checks and other tournaments reuse them. A
// bot that does not compile keeps its seat, which answers every request
// with the build's fault.
func BuildSeat(ctx context.Context, run Runner, seat Seat, lim sandbox.BuildLimits) (Seat, error) {
	staged := seat.Bot.Path
	if seat.Bot.Protocol != sandbox.ProtocolProgram || !sandbox.Compiled(staged) {
		return seat, nil
	}
	if !run.Builds() {
		return seat, ErrNoBuilder
	}
	built, err := buildOnce(ctx, run, staged, lim)
	if err != nil {
		return seat, fmt.Errorf("building %s: %w", seat.Name, err)
	}
	seat.Build = &built
	if built.Fault == fault.None {
		seat.Bot.Path = filepath.Join(filepath.Dir(staged), builtName)
	}
	return seat, nil
}

// buildOnce returns the recorded build of the staged bot, or builds it and
// records it. The program appears before its record, each by a rename, so
// that a record always means a complete build, even with two judges at once.
func buildOnce(ctx context.Context, b Runner, staged string, lim sandbox.BuildLimits) (sandbox.Built, error) {
	dir := filepath.Dir(staged)
	record := filepath.Join(dir, recordName)
	var built sandbox.Built
	data, err := os.ReadFile(record)
	if err == nil {
		if err := json.Unmarshal(data, &built); err != nil {
			return built, fmt.Errorf("reading %s: %w", record, err)
		}
		built.Reused = true
		// A program removed by hand is built again rather than missed by
		// every game.
		if _, err := os.Stat(filepath.Join(dir, builtName)); built.Fault != fault.None || err == nil {
			return built, nil
		}
		built = sandbox.Built{}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return built, err
	}
	tmp, err := os.MkdirTemp(dir, stagingPrefix)
	if err != nil {
		return built, err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return built, err
	}
	built, err = b.Build(ctx, staged, filepath.Join(tmp, builtName), lim)
	if err != nil {
		return built, err
	}
	if built.Fault == fault.None {
		err := os.Rename(filepath.Join(tmp, builtName), filepath.Join(dir, builtName))
		// Another judge may have built the same content first.
		if err != nil && !errors.Is(err, syscall.EEXIST) && !errors.Is(err, syscall.ENOTEMPTY) {
			return built, err
		}
	}
	data, err = json.Marshal(built)
	if err != nil {
		return built, err
	}
	if err := os.WriteFile(filepath.Join(tmp, recordName), data, 0o644); err != nil {
		return built, err
	}
	return built, os.Rename(filepath.Join(tmp, recordName), record)
}

// unbuilt is the session of a bot that did not compile: nothing runs, and
// every request gets the build's fault.
type unbuilt struct{ reply sandbox.Reply }

func newUnbuilt(b *sandbox.Built) unbuilt {
	return unbuilt{sandbox.Reply{Fault: fault.Build, Detail: "your bot did not compile: " + b.Detail}}
}

func (u unbuilt) Ask(context.Context, []byte) (sandbox.Reply, error) { return u.reply, nil }
func (u unbuilt) Ready() sandbox.Reply                               { return u.reply }
func (u unbuilt) Log() string                                        { return "" }
func (u unbuilt) Close(context.Context) error                        { return nil }

// startSeat starts a seat's bot, or stands in for one that did not compile.
func startSeat(ctx context.Context, run Runner, s Seat, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	if s.Build != nil && s.Build.Fault != fault.None {
		return newUnbuilt(s.Build), nil
	}
	return run.Start(ctx, s.Bot, lim, labels)
}
