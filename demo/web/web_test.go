package web

import (
	"context"
	"errors"
	"image"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// browserOrSkip returns the Chromium to drive. Without one the test cannot run: it is skipped on a
// developer's machine, but fails where it is required, under CI=true or STAGGER_BROWSER_TEST=1
// (`make browser`), as the window tests fail without a display under STAGGER_WINDOW_TEST=1.
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
// returning it and its address.
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

// artifactDir is where the test keeps its screenshots: $STAGGER_BROWSER_ARTIFACTS when set (`make
// browser` keeps them), a temporary directory otherwise.
func artifactDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("STAGGER_BROWSER_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// Test window, CSS pixels.
const testW, testH = 960, 600

// TestBrowserPlaysTheFirstLevel is the browser build's end-to-end test. It builds the wasm, serves
// it on a loopback port and drives headless Chromium with software WebGL:
//   - the page opens the game on its level list, as the desktop does: the picture is not one
//     colour and the list's dark panel covers the middle of the window;
//   - ?scene=cardhouse opens the first level: the page reports it, playing, no throw, no error,
//     and the middle of the view (clear of the HUD and the goal line) holds the structure's many
//     colours rather than a cleared screen;
//   - a click at the middle of the view throws: the game counts one throw, and a second later at
//     least 2 % of the middle of the view has changed;
//   - the click makes the Web Audio context, and the structure coming down plays at least one
//     knock through it;
//   - the console holds no error, exception, Go panic or exit throughout, and it would: a page
//     with an unknown query parameter reports an error naming it and the program's exit.
func TestBrowserPlaysTheFirstLevel(t *testing.T) {
	path := browserOrSkip(t)
	art := artifactDir(t)
	site, addr := serveSite(t, t.TempDir())
	b, err := StartBrowser(context.Background(), path, testW, testH)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	shot := func(name string) image.Image {
		t.Helper()
		img, data, err := b.Screenshot()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(art, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		return img
	}
	middle := func(r image.Rectangle) image.Rectangle {
		return image.Rect(r.Min.X+r.Dx()*35/100, r.Min.Y+r.Dy()*30/100, r.Min.X+r.Dx()*65/100, r.Min.Y+r.Dy()*80/100)
	}

	// The level list.
	st, err := b.Open(addr+"/", 3, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	start := shot("browser-start.png")
	if n := distinctColours(start, start.Bounds()); n < 2 {
		t.Fatalf("the start screen is blank: %d colour(s)", n)
	}
	if frac := darkFraction(start); frac < 0.3 {
		t.Errorf("only %.0f %% of the window's middle is the level list's panel", 100*frac)
	}
	if st.Error != "" {
		t.Errorf("start screen: the game reports an error: %s", st.Error)
	}

	// The first level, opened directly.
	st, err = b.Open(addr+"/?scene=cardhouse", 5, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wasm %.1f MB; first frame of the level %.0f ms after navigation", float64(site.WasmBytes)/1e6, st.FirstFrame)
	if st.Level != "Card house" || st.State != "playing" || st.Throws != 0 || st.Error != "" {
		t.Fatalf("the page reports %+v; want the card house, playing, no throw, no error", st)
	}
	before := shot("browser-level.png")
	mid := middle(before.Bounds())
	if n := distinctColours(before, mid); n < 10 {
		t.Fatalf("the level did not render: the middle of the view has %d colour(s)", n)
	}

	// A click throws the ball at the structure.
	if err := b.Click(testW/2, testH/2); err != nil {
		t.Fatal(err)
	}
	st, err = b.Wait("g.throws >= 1", 30*time.Second)
	if err != nil {
		t.Fatalf("no throw after a click: %v", err)
	}
	// A second of play, and at least a few frames of it however slowly the machine draws.
	time.Sleep(time.Second)
	if st, err = b.WaitFrames(st.Frames+5, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	after := shot("browser-throw.png")
	if after.Bounds() != before.Bounds() {
		t.Fatalf("the screenshots' sizes differ: %v, %v", before.Bounds(), after.Bounds())
	}
	changed := changedFraction(before, after, mid)
	if changed < 0.02 {
		t.Errorf("a second after the throw only %.1f %% of the middle of the view changed", 100*changed)
	}
	st, err = b.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Throws != 1 || st.Error != "" {
		t.Errorf("the page reports %+v; want one throw and no error", st)
	}
	// The click made the Web Audio context, and the card house coming down knocks through it.
	if st, err = b.Wait("g.knocks >= 1", 30*time.Second); err != nil {
		t.Errorf("no knock after the throw: %v", err)
	}
	if st.Audio == "" || st.Audio == "closed" {
		t.Errorf("the page reports %+v; want a Web Audio context made by the click", st)
	}
	t.Logf("after the throw: %.0f %% of the middle changed; %+v", 100*changed, st)
	if p := b.Problems(); len(p) > 0 {
		t.Fatalf("the console reported problems:\n%s", strings.Join(p, "\n"))
	}

	// The check above sees failures: a page with a setting the game does not know reports it as
	// an error naming it, and the program's exit.
	if err := b.Navigate(addr+"/?scene=cardhouse&bogus=1", time.Minute); err != nil {
		t.Fatal(err)
	}
	var p []string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && len(p) < 2; time.Sleep(100 * time.Millisecond) {
		p = b.Problems()
	}
	if len(p) != 2 || !strings.Contains(p[0], `"bogus"`) || !strings.Contains(p[1], "exit code: 2") {
		t.Errorf("after ?bogus=1 the console reported %q; want the error naming it and the exit", p)
	}
	shown, err := b.Text("#stagger-error")
	if err != nil || !strings.Contains(shown, `"bogus"`) {
		t.Errorf("after ?bogus=1 the page shows %q (%v); want the error naming it", shown, err)
	}
}

// distinctColours counts the distinct colours of img within r, stopping at 1,000.
func distinctColours(img image.Image, r image.Rectangle) int {
	seen := map[[4]uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			seen[[4]uint32{cr, cg, cb, ca}] = true
			if len(seen) >= 1000 {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// darkFraction is the fraction of the box from 40 % to 60 % across and 25 % to 40 % down that is
// a dark grey like the menus' panel (the desktop's TestWindowStartScreen measures the same).
func darkFraction(img image.Image) float64 {
	b := img.Bounds()
	dark, all := 0, 0
	for y := b.Min.Y + b.Dy()*25/100; y < b.Min.Y+b.Dy()*40/100; y++ {
		for x := b.Min.X + b.Dx()*40/100; x < b.Min.X+b.Dx()*60/100; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			hi, lo := max(r, g, bl)>>8, min(r, g, bl)>>8
			all++
			if hi < 90 && hi-lo < 20 {
				dark++
			}
		}
	}
	return float64(dark) / float64(all)
}

// changedFraction is the fraction of the pixels of r whose colour differs between a and b by more
// than 8 levels in some channel.
func changedFraction(a, b image.Image, r image.Rectangle) float64 {
	changed := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			if absDiff(ar, br)>>8 > 8 || absDiff(ag, bg)>>8 > 8 || absDiff(ab, bb)>>8 > 8 {
				changed++
			}
		}
	}
	return float64(changed) / float64(r.Dx()*r.Dy())
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
