package web

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"time"
)

// MeasureScene is the level Measure loads: the first level, as the end-to-end test opens it.
const MeasureScene = "cardhouse"

// Measurement is the browser build's size and load time.
type Measurement struct {
	WasmBytes int64
	// FirstLoadMs is the first visit's time from navigation to the game's first frame, ms: the
	// module fetched, compiled, started, and the level built and drawn once. ReloadMs are the
	// same for the visits after it, which the browser may serve from its caches.
	FirstLoadMs float64
	ReloadMs    []float64
}

// Measure builds the site with goCmd, serves it on a loopback port and opens ?scene=cardhouse
// 1+reloads times in the headless Chromium at browserPath, each in a fresh navigation, timing
// each to the game's first frame.
func Measure(ctx context.Context, goCmd, browserPath string, reloads int) (Measurement, error) {
	if reloads < 0 {
		return Measurement{}, fmt.Errorf("web: reloads %d: must be ≥ 0", reloads)
	}
	dir, err := os.MkdirTemp("", "stagger-web-")
	if err != nil {
		return Measurement{}, err
	}
	defer os.RemoveAll(dir)
	site, err := Build(ctx, goCmd, dir)
	if err != nil {
		return Measurement{}, err
	}
	ln, err := Listen("127.0.0.1:0", false)
	if err != nil {
		return Measurement{}, err
	}
	srv := &http.Server{Handler: Handler(dir), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	b, err := StartBrowser(ctx, browserPath, 960, 600)
	if err != nil {
		return Measurement{}, err
	}
	defer b.Close()
	m := Measurement{WasmBytes: site.WasmBytes}
	url := fmt.Sprintf("http://%s/?scene=%s", ln.Addr(), MeasureScene)
	for i := 0; i <= reloads; i++ {
		st, err := b.Open(url, 1, 2*time.Minute)
		if err != nil {
			return Measurement{}, err
		}
		if st.Error != "" {
			return Measurement{}, fmt.Errorf("web: the game reports an error: %s", st.Error)
		}
		if i == 0 {
			m.FirstLoadMs = st.FirstFrame
		} else {
			m.ReloadMs = append(m.ReloadMs, st.FirstFrame)
		}
	}
	if p := b.Problems(); len(p) > 0 {
		return Measurement{}, fmt.Errorf("web: the console reported problems: %v", p)
	}
	return m, nil
}

// MedianMs is the median of ms, 0 for none.
func MedianMs(ms []float64) float64 {
	if len(ms) == 0 {
		return 0
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
