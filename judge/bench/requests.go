package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// language is one row of the request table: a program bot that answers at
// once, and the floor it is compared with, the same interpreter started
// bare on the host, which is what a fresh process per request cannot beat.
type language struct {
	name string // the sandbox's name for it
	file string // the bot, in bots/battleships/
	floor
	// warm says the harness starts this language's process ahead of its
	// request (the sandbox's Language.Warm).
	warm bool
}

// floor is how the table starts a language bare on the host.
type floor struct {
	// argv is the bare start's command; a word "{dir}" is the folder where
	// prepare left its files.
	argv []string
	// prepare readies the floor in dir (compiles it); nil when nothing to do.
	prepare func(ctx context.Context, dir string) error
	// target is the sandboxed median's bound in ms; 0 means ×1.2 the floor.
	target float64
}

// floorRatio is how far above its bare start a language's request may be.
const floorRatio = 1.2

// floors are the bench's own part of its languages, by extension: what
// the sandbox's table does not say, how to start each bare.
var floors = map[string]floor{
	".py": {argv: []string{"python3", "-c", "pass"}, target: 5},
	".js": {argv: []string{"node", "-e", "0"}},
	".coffee": {argv: []string{"coffee", "{dir}/empty.coffee"}, prepare: func(ctx context.Context, dir string) error {
		return os.WriteFile(filepath.Join(dir, "empty.coffee"), nil, 0o644)
	}},
	".php": {argv: []string{"php", "-r", ""}},
	".java": {argv: []string{"java", "-cp", "{dir}", "Shot"}, prepare: func(ctx context.Context, dir string) error {
		return hostBuild(ctx, dir, "Shot.java", "javac", "-d", dir, "Shot.java")
	}},
	".c": {argv: []string{"{dir}/shot"}, prepare: func(ctx context.Context, dir string) error {
		return hostBuild(ctx, dir, "shot.c", "gcc", "-O2", "-o", "shot", "shot.c")
	}},
}

// languages are the sandbox's languages that have a floor, in its order,
// each with its bench bot (shot.<ext>, a Java file named after its class).
var languages = func() []language {
	var ls []language
	for _, l := range sandbox.Languages {
		f, ok := floors[l.Ext]
		if !ok {
			continue
		}
		file := "shot" + l.Ext
		if _, err := botFiles.Open("bots/battleships/" + file); err != nil {
			file = "Shot" + l.Ext
		}
		ls = append(ls, language{name: l.Name, file: file, floor: f, warm: l.Warm != ""})
	}
	return ls
}()

// hostBuild compiles the bench bot file in dir with the host's compiler.
func hostBuild(ctx context.Context, dir, file string, argv ...string) error {
	src, err := botFiles.ReadFile("bots/battleships/" + file)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, file), src, 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}

// requests times one request to a program bot of each language in the
// sandbox, alternating with a bare start of its interpreter on the host so
// that the machine's load weighs on both alike. A language whose
// interpreter is missing on the host gets no floor and says why.
func (b *bencher) requests(ctx context.Context) error {
	n := b.sz.LangRequests
	if n <= 0 {
		return nil
	}
	b.progress("program request per language, %d each, beside its bare start on the host", n)
	for _, lang := range languages {
		if err := b.requestRows(ctx, lang, n); err != nil {
			return err
		}
	}
	b.note("request rows' bare starts ran %s", strings.Join(hostVersions(ctx), ", "))
	b.note("request rows: the sandboxed column is a request to a program bot that prints its answer at once (Docker, the harness, a process per request); the plain column is the bare start of the same interpreter on the host, the floor a fresh process cannot beat")
	if b.cfg.Cold != nil {
		b.note("request rows \"started with it\": the same bot whose process the harness starts when the request comes rather than ahead of it (no warm start), in the same run")
	}
	return nil
}

// requestRows adds lang's rows: n requests to its bot in the sandbox, each
// beside a bare start on the host, and for a warm-started language the
// same without the warm start when the bench has a cold runner.
func (b *bencher) requestRows(ctx context.Context, lang language, n int) error {
	dir := filepath.Join(b.work, "languages", lang.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	floor := b.hostFloor(ctx, lang, dir)
	bot, seat, err := b.languageSeat(ctx, lang)
	if err != nil {
		return err
	}
	req := bot.rules.New(1, []string{"a", "b"}).Request(0)
	if lang.warm && b.cfg.Cold != nil {
		took, bare, err := b.timeLanguage(ctx, b.cfg.Cold, seat.Bot, req, floor, n)
		if err != nil {
			return fmt.Errorf("%s, cold: %w", lang.name, err)
		}
		b.add(Row{Measure: fmt.Sprintf("request, %s, started with it, median", lang.name), Unit: "ms",
			Sandboxed: quantile(took, 0.5), Plain: quantile(bare, 0.5), Compare: "ratio"})
	}
	took, bare, err := b.timeLanguage(ctx, b.sides[0].Runner, seat.Bot, req, floor, n)
	if err != nil {
		return fmt.Errorf("%s: %w", lang.name, err)
	}
	b.add(lang.row(quantile(took, 0.5), quantile(bare, 0.5)))
	return nil
}

// hostFloor readies lang's bare start in dir; nil, with a note saying why,
// when the host cannot run it.
func (b *bencher) hostFloor(ctx context.Context, lang language, dir string) []string {
	floor := lang.floorIn(dir)
	if lang.prepare != nil {
		if err := lang.prepare(ctx, dir); err != nil {
			b.note("%s: no bare start on the host (%v)", lang.name, firstLine(err.Error()))
			return nil
		}
	}
	if _, err := exec.LookPath(floor[0]); err != nil {
		b.note("%s: no bare start on the host (%v)", lang.name, err)
		return nil
	}
	return floor
}

// languageSeat stages lang's bot and builds it on the sandboxed runner.
func (b *bencher) languageSeat(ctx context.Context, lang language) (benchBot, contest.Seat, error) {
	bot, err := loadBot(lang.file)
	if err != nil {
		return bot, contest.Seat{}, err
	}
	path, err := b.file(filepath.Join("languages", lang.name, "bot", lang.file), bot.source, 0o644)
	if err != nil {
		return bot, contest.Seat{}, err
	}
	seat, err := contest.Pipeline{Run: b.sides[0].Runner}.Built(ctx, contest.Seat{Name: "shot", Bot: bot.bot("shot", path)})
	if err != nil {
		return bot, seat, err
	}
	if seat.Build != nil && seat.Build.Fault != "" {
		return bot, seat, fmt.Errorf("%w: %s does not build: %s", errBot, lang.file, seat.Build.Detail)
	}
	return bot, seat, nil
}

// row is lang's request row from the sandboxed median med and the bare
// start's base, against its target.
func (l language) row(med, base float64) Row {
	row := Row{Measure: fmt.Sprintf("request, %s, median (plain: %s)", l.name, l.floorName()),
		Unit: "ms", Sandboxed: med, Plain: base, Compare: "ratio"}
	if l.target > 0 {
		row.Target, row.Met = fmt.Sprintf("≤ %g ms", l.target), atMost(med, l.target)
	} else {
		row.Target, row.Met = fmt.Sprintf("≤ ×%g bare start", floorRatio), atMost(med/base, floorRatio)
	}
	return row
}

// floorIn is the floor's command with {dir} replaced.
func (l language) floorIn(dir string) []string {
	out := make([]string, len(l.argv))
	for i, w := range l.argv {
		out[i] = strings.ReplaceAll(w, "{dir}", dir)
	}
	return out
}

// floorName says what the floor runs, for the row's name.
func (l language) floorName() string {
	words := make([]string, len(l.argv))
	for i, w := range l.argv {
		switch {
		case w == "":
			words[i] = "''"
		case strings.HasPrefix(w, "{dir}/"):
			words[i] = strings.TrimPrefix(w, "{dir}/")
		case w == "{dir}":
			words[i] = "."
		default:
			words[i] = w
		}
	}
	return strings.Join(words, " ")
}

// timeLanguage sends n requests to one session of bot (after a few
// unmeasured ones), each followed by one bare start of floor (nil: none).
func (b *bencher) timeLanguage(ctx context.Context, run contest.Runner, bot sandbox.Bot, req []byte, floor []string, n int) (took, bare []time.Duration, err error) {
	s, err := run.Start(ctx, bot, sandbox.DefaultLimits(), nil)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close(ctx)
	if err := checkReply(s.Ready(), nil); err != nil {
		return nil, nil, err
	}
	const warmUp = 3
	for k := range n + warmUp {
		began := time.Now()
		err := checkReply(s.Ask(ctx, req))
		elapsed := time.Since(began)
		if err != nil {
			return nil, nil, err
		}
		if floor != nil {
			cmd := exec.CommandContext(ctx, floor[0], floor[1:]...)
			began := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				return nil, nil, fmt.Errorf("bare start %q: %v: %s", floor, err, out)
			}
			if k >= warmUp {
				bare = append(bare, time.Since(began))
			}
		}
		if k >= warmUp {
			took = append(took, elapsed)
		}
	}
	return took, bare, nil
}

// hostVersions are the host's interpreters' versions, which may not be the
// image's (Debian 12's): a floor is only as comparable as its interpreter.
func hostVersions(ctx context.Context) []string {
	var out []string
	for _, argv := range [][]string{{"python3", "--version"}, {"node", "--version"}, {"coffee", "--version"}, {"php", "--version"}, {"java", "-version"}} {
		got, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
		if err == nil {
			out = append(out, argv[0]+" "+strings.TrimSpace(firstLine(string(got))))
		}
	}
	return out
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
