package web

import (
	"context"
	"errors"
	"fmt"
	"image"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// browserOrSkip returns the Chromium to drive. Without one the test cannot run: it is skipped on a
// developer's machine, but fails where it is required, under CI=true or STAGGER_BROWSER_TEST=1
// (`make browser`).
func browserOrSkip(t *testing.T) string {
	t.Helper()
	path, err := FindBrowser()
	if err == nil {
		return path
	}
	if os.Getenv("CI") != "" || os.Getenv("STAGGER_BROWSER_TEST") == "1" || !errors.Is(err, ErrNoBrowser) {
		t.Fatal(err)
	}
	t.Skip(err)
	return ""
}

// serveSite builds the site into dir and serves it on a free loopback port until the test ends,
// returning its address.
func serveSite(t *testing.T, dir string) (Site, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	site, err := Build(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: Handler(dir), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return site, "http://" + ln.Addr().String()
}

// artifactDir is where the test keeps its screenshots: $STAGGER_BROWSER_ARTIFACTS when set (make
// browser keeps them), a temporary directory otherwise.
func artifactDir(t *testing.T) string {
	if d := os.Getenv("STAGGER_BROWSER_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// TestBrowserPlaysTheFirstLevel is the browser build's end-to-end test: ...
func TestBrowserPlaysTheFirstLevel(t *testing.T) {
	path := browserOrSkip(t)
	art := artifactDir(t)
	site, addr := serveSite(t, filepath.Join(t.TempDir(), "site"))
	t.Logf("wasm %d bytes", site.WasmBytes)
	const w, h = 960, 600
	b, err := StartBrowser(context.Background(), path, w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	start := time.Now()
	st, err := b.Open(addr+"/?scene=cardhouse", 5, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("first frame %.0f ms, %v to 5 frames: %+v", st.FirstFrame, time.Since(start), st)
	img, png, err := b.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(art, "browser-level.png"), png, 0o644)
	t.Logf("%v", img.Bounds())
	if err := b.Click(w/2, h/2); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	st, err = b.State()
	t.Logf("%+v %v", st, err)
	_, png, err = b.Screenshot()
	_ = os.WriteFile(filepath.Join(art, "browser-throw.png"), png, 0o644)
	fmt.Println(b.ConsoleText())
	_ = image.Point{}
}
