package sandbox_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"botjudge/games/fault"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

func TestEngineUnreachable(t *testing.T) {
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
	_, err := sandbox.NewDocker(context.Background(), sandbox.Options{})
	if !errors.Is(err, sandbox.ErrEngine) || !strings.Contains(err.Error(), "start Docker") {
		t.Fatalf("got %v, want ErrEngine", err)
	}
}

func TestImageMissing(t *testing.T) {
	t.Parallel()
	sandboxtest.Docker(t)
	ctx := context.Background()
	d, err := sandbox.NewDocker(ctx, sandbox.Options{Image: "botjudge-runtime:missing-" + uuid.NewString()})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.EnsureImage(ctx, nil, false); !errors.Is(err, sandbox.ErrImageMissing) || !strings.Contains(err.Error(), "make image") {
		t.Errorf("EnsureImage: got %v, want ErrImageMissing", err)
	}
	if _, err := d.Start(ctx, virusBot(t, "def ia(game, side):\n    return 1\n"), limits(time.Second), nil); !errors.Is(err, sandbox.ErrImageMissing) {
		t.Errorf("Start: got %v, want ErrImageMissing", err)
	}
}

func TestEnsureImagePresent(t *testing.T) {
	t.Parallel()
	d := sandboxtest.Docker(t)
	id, err := d.EnsureImage(context.Background(), nil, false)
	if err != nil || !strings.HasPrefix(id, "sha256:") {
		t.Fatalf("got %q, %v", id, err)
	}
	if !strings.HasPrefix(d.Image(), "botjudge-runtime:") || d.Image() != sandbox.RuntimeImage() {
		t.Errorf("image %q", d.Image())
	}
}

const trivialBot = "def ia(game, side):\n    return [0, 1]\n"

func benchmarkAsk(b *testing.B, r runner) {
	s := start(b, r, virusBot(b, trivialBot), sandbox.DefaultLimits())
	request := []byte(virusRequest("player_1", ""))
	var took []time.Duration
	for b.Loop() {
		began := time.Now()
		got, err := s.Ask(context.Background(), request)
		took = append(took, time.Since(began))
		if err != nil || got.Fault != fault.None {
			b.Fatalf("%+v, %v", got, err)
		}
	}
	reportMedian(b, took, time.Microsecond, "median-µs")
}

// BenchmarkAskDocker is one virus request through the container's attached
// stream.
func BenchmarkAskDocker(b *testing.B) { benchmarkAsk(b, sandboxtest.Docker(b)) }

// BenchmarkAskLocal is the same without Docker, as a baseline.
func BenchmarkAskLocal(b *testing.B) { benchmarkAsk(b, sandbox.NewLocal()) }

// BenchmarkStartClose is a container from creation to ready, and its
// removal.
func BenchmarkStartClose(b *testing.B) {
	b.Run("fresh", func(b *testing.B) { benchmarkStartClose(b, sandboxtest.Docker(b)) })
	b.Run("reused", func(b *testing.B) { benchmarkStartClose(b, sandboxtest.Pool(b).Pool) })
}

func benchmarkStartClose(b *testing.B, r runner) {
	bot := virusBot(b, trivialBot)
	ctx := context.Background()
	var took []time.Duration
	for b.Loop() {
		began := time.Now()
		s, err := r.Start(ctx, bot, sandbox.DefaultLimits(), nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(ctx); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(began))
	}
	reportMedian(b, took, time.Millisecond, "median-ms")
}

// BenchmarkPhases: where a fresh container's time goes, each step's median.
func BenchmarkPhases(b *testing.B) {
	d := sandboxtest.Docker(b)
	bot := virusBot(b, trivialBot)
	var took [4][]time.Duration
	for b.Loop() {
		t, err := sandbox.Phases(context.Background(), d, bot)
		if err != nil {
			b.Fatal(err)
		}
		for i := range t {
			took[i] = append(took[i], t[i])
		}
	}
	for i, name := range []string{"create-ms", "start-ms", "ready-ms", "remove-ms"} {
		reportMedian(b, took[i], time.Millisecond, name)
	}
}

func reportMedian(b *testing.B, took []time.Duration, unit time.Duration, name string) {
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/float64(unit), name)
}

// A Start cancelled at any moment, even while the engine is creating the
// container, must leave nothing behind: this is what Ctrl-C does to the
// games being prepared.
func TestStartCancelledLeavesNothing(t *testing.T) {
	d := sandboxtest.Docker(t)
	bot := virusBot(t, "def ia(game, side):\n    return False\n")
	for i := range 12 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i)*4*time.Millisecond)
		s, err := d.Start(ctx, bot, limits(time.Second), nil)
		cancel()
		if err == nil {
			s.Close(context.Background())
		}
	}
	if n := sandboxtest.Leftovers(t, d); n != 0 {
		t.Errorf("%d containers left by cancelled starts", n)
	}
}
