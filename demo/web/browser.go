package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
)

// ErrNoBrowser is returned by FindBrowser when no Chromium is installed.
var ErrNoBrowser = errors.New("no Chromium found")

// browserNames are the Chromium commands FindBrowser looks for, in order: Debian's headless shell
// (scripts/setup.sh installs it), then full browsers.
var browserNames = []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// FindBrowser returns the path of the Chromium to drive: $STAGGER_BROWSER when set (it must
// exist), otherwise the first of browserNames on PATH; ErrNoBrowser when there is none.
func FindBrowser() (string, error) {
	if p := os.Getenv("STAGGER_BROWSER"); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("STAGGER_BROWSER=%q: %v", p, err)
		}
		return path, nil
	}
	for _, n := range browserNames {
		if path, err := exec.LookPath(n); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("%w (looked for %s on PATH; scripts/setup.sh installs chromium-headless-shell)", ErrNoBrowser, strings.Join(browserNames, ", "))
}

// Browser is a headless Chromium with one tab, and what the page wrote to the console.
type Browser struct {
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	msgs   []chromedp.ConsoleMessage
	done   chan struct{}
}

// StartBrowser starts the Chromium at path, headless, with a w × h window and WebGL drawn in
// software by SwiftShader, so that it runs without a display or a GPU (the sandbox is off: it
// needs privileges that containers lack). Close stops it.
func StartBrowser(parent context.Context, path string, w, h int) (*Browser, error) {
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("web: window %d×%d: both sides must be positive", w, h)
	}
	actx, acancel := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(path),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.WindowSize(w, h),
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("mute-audio", true),
	)
	ctx, cancel := chromedp.NewContext(actx)
	b := &Browser{ctx: ctx, done: make(chan struct{}), cancel: func() { cancel(); acancel() }}
	// The first action starts the browser; it must have no deadline, which would stop it.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), int64(h))); err != nil {
		b.cancel()
		return nil, fmt.Errorf("web: starting %s: %v", path, err)
	}
	msgs := chromedp.Console(ctx)
	go func() {
		defer close(b.done)
		for m, err := range msgs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.msgs = append(b.msgs, m)
			b.mu.Unlock()
		}
	}()
	return b, nil
}

// Close stops the browser.
func (b *Browser) Close() {
	b.cancel()
	<-b.done
}

// run runs an action with a timeout.
func run[T any](b *Browser, timeout time.Duration, a chromedp.Action[T]) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	return chromedp.Run(ctx, a)
}

// GameState is what the browser build publishes to its page after every frame (demo/publish_js.go).
type GameState struct {
	// FirstFrame is when the first frame was rendered, in ms since the page's navigation began.
	FirstFrame float64 `json:"firstFrame"`
	Frames     int     `json:"frames"`
	Level      string  `json:"level"`
	State      string  `json:"state"`
	Throws     int     `json:"throws"`
	Error      string  `json:"error"`
	// Knocks counts the impact sounds started; Audio is the Web Audio context's state, "" until
	// the first click makes it.
	Knocks int    `json:"knocks"`
	Audio  string `json:"audio"`
}

// Open navigates the tab to url and waits, up to timeout, until the game has rendered frames
// frames, returning its state then.
func (b *Browser) Open(url string, frames int, timeout time.Duration) (GameState, error) {
	if err := b.Navigate(url, timeout); err != nil {
		return GameState{}, err
	}
	return b.WaitFrames(frames, timeout)
}

// Navigate navigates the tab to url and waits, up to timeout, for the page to load.
func (b *Browser) Navigate(url string, timeout time.Duration) error {
	if _, err := run(b, timeout, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("web: open %s: %v", url, err)
	}
	return nil
}

// WaitFrames waits, up to timeout, until the game has rendered at least n frames in all, and
// returns its state then.
func (b *Browser) WaitFrames(n int, timeout time.Duration) (GameState, error) {
	return b.Wait(fmt.Sprintf("g.frames >= %d", n), timeout)
}

// Wait waits, up to timeout, until the JavaScript condition cond holds of the game's published
// state g (for example "g.throws >= 1"), and returns the state then. The state is published
// after each frame, so cond sees a frame's outcome once that frame has been drawn.
func (b *Browser) Wait(cond string, timeout time.Duration) (GameState, error) {
	expr := fmt.Sprintf("((g) => g !== undefined && (%s) && g)(window.staggerGame)", cond)
	st, err := run(b, timeout, chromedp.Poll[GameState](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(timeout)))
	if err != nil {
		return GameState{}, fmt.Errorf("web: waiting for %s: %v (console: %s)", cond, err, strings.Join(b.ConsoleText(), " | "))
	}
	return st, nil
}

// State reads the game's published state.
func (b *Browser) State() (GameState, error) {
	return run(b, 10*time.Second, chromedp.Evaluate[GameState]("window.staggerGame"))
}

// Screenshot captures the tab's viewport.
func (b *Browser) Screenshot() (image.Image, []byte, error) {
	data, err := run(b, 30*time.Second, chromedp.CaptureScreenshot())
	if err != nil {
		return nil, nil, fmt.Errorf("web: screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("web: screenshot: %v", err)
	}
	return img, data, nil
}

// Text returns the text of the first element the CSS selector sel matches, an error if none does.
func (b *Browser) Text(sel string) (string, error) {
	return run(b, 10*time.Second, chromedp.Evaluate[string](fmt.Sprintf("document.querySelector(%q).textContent", sel)))
}

// Click presses the left mouse button at the viewport point (x, y) and releases it there.
func (b *Browser) Click(x, y float64) error {
	_, err := run(b, 10*time.Second, chromedp.MouseClickXY(x, y))
	return err
}

// Problems returns what the page reported as going wrong, in order: console errors, uncaught
// exceptions, error entries of the browser's log (a failed fetch), lines in which the Go runtime
// reports a panic or a fatal error (Go's wasm_exec.js writes them with console.log) and the
// warning wasm_exec.js gives when the program exits with a non-zero code.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.msgs {
		switch {
		case m.Type == chromedp.ConsoleError || m.IsException():
			out = append(out, m.String())
		case strings.HasPrefix(m.Text, "panic:") || strings.HasPrefix(m.Text, "fatal error:") || strings.HasPrefix(m.Text, "exit code:"):
			out = append(out, m.String())
		}
	}
	return out
}

// ConsoleText returns every console message so far, as the DevTools console would show them.
func (b *Browser) ConsoleText() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, len(b.msgs))
	for i, m := range b.msgs {
		out[i] = m.String()
	}
	return out
}
