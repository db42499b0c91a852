package main

import (
	"context"
	"log"
	"slices"
	"strings"

	"botjudge/judge/arena"
	"botjudge/judge/handin"
)

// arenaFlag is --arena: alone, every game open for hand-in has an arena;
// --arena=GAME,GAME names them.
type arenaFlag struct {
	on    bool
	games string
}

func (f *arenaFlag) IsBoolFlag() bool { return true }

func (f *arenaFlag) String() string {
	if f == nil || !f.on {
		return "false"
	}
	return f.games
}

func (f *arenaFlag) Set(s string) error {
	switch s {
	case "true":
		f.on, f.games = true, ""
	case "false":
		f.on, f.games = false, ""
	default:
		f.on, f.games = true, s
	}
	return nil
}

// arenaGames are the games of the arena: those named, which must be open
// for hand-in, or every game open.
func (f *arenaFlag) arenaGames(open []string) ([]string, error) {
	if f.games == "" {
		return open, nil
	}
	var list []string
	for _, g := range strings.Split(f.games, ",") {
		g = strings.TrimSpace(g)
		if !slices.Contains(open, g) {
			return nil, usagef("--arena names %q, which is not open for hand-in: use some of %s", g, strings.Join(open, ", "))
		}
		list = append(list, g)
	}
	return list, nil
}

// startArena plays the arena's games after hs's checks (none starts while
// a version waits for its check) until ctx ends or the deadline passes;
// wait returns once its games have ended.
func (sf *serveFlags) startArena(ctx context.Context, hs *handin.Server, checker *handin.SandboxChecker, opt handin.Options, lg *log.Logger) (wait func()) {
	if !sf.arena.on {
		return func() {}
	}
	actx, cancel := ctx, context.CancelFunc(func() {})
	if !opt.Deadline.IsZero() {
		actx, cancel = context.WithDeadline(ctx, opt.Deadline)
	}
	p := &handin.ArenaPlayer{Checker: checker}
	loop := &arena.Loop{Source: p, Player: p, Games: sf.arenaGames, Parallel: sf.arenaParallel, Log: lg, Hold: hs.ChecksWait}
	done := make(chan struct{})
	go func() { loop.Run(actx); cancel(); close(done) }()
	return func() { <-done }
}
