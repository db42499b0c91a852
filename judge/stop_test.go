package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"

	"botjudge/sandbox"
)

// slowEngine is a socket in front of the machine's Docker engine that
// answers everything but removals, which wait until the test ends: an
// engine too slow to remove anything in time.
func slowEngine(t *testing.T) string {
	t.Helper()
	const real = "/var/run/docker.sock"
	if _, err := os.Stat(real); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Docker engine: %v", err)
		}
		t.Skipf("no Docker engine (set CI=true to make this a failure): %v", err)
	}
	dir, err := os.MkdirTemp("", "bjs") // a socket's path must be short
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "d.sock"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: "docker"})
	proxy.Transport = &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", real)
	}}
	release := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			http.Error(w, "too slow", http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	})}
	go srv.Serve(l)
	t.Cleanup(func() {
		close(release)
		srv.Close()
		os.RemoveAll(dir)
	})
	return "unix://" + l.Addr().String()
}

// A stop on a slow engine waits for it, within a bound, then says in ONE
// line what is left and that the next run removes it, instead of one line
// of "context deadline exceeded" per container and volume.
func TestCloseOnSlowEngineSaysOneLine(t *testing.T) {
	ctx := context.Background()
	e, err := dialEngine(ctx, sandbox.Options{Host: slowEngine(t)}, false)
	if err != nil {
		t.Fatal(err)
	}
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	for _, name := range []string{"a", "b", "c"} {
		v, err := cli.VolumeCreate(ctx, volume.CreateOptions{Name: "botjudge-slowtest-" + e.d.Owner() + "-" + name,
			Labels: map[string]string{sandbox.LabelJudge: "1", sandbox.LabelOwner: e.d.Owner()}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cli.VolumeRemove(ctx, v.Name, true) })
	}
	defer func(w time.Duration) { closeWait = w }(closeWait)
	closeWait = time.Second
	var stderr strings.Builder
	e.close(ctx, &stderr)
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "0 containers and 3 volumes of this run are left on the engine") ||
		!strings.HasSuffix(lines[0], "the next run removes them") {
		t.Errorf("what a stop on a slow engine said:\n%s", stderr.String())
	}
}
