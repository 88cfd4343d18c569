package main

import (
	"fmt"

	"github.com/g3n/engine/gls"
)

// saveScreenshot is not available in the browser: g3n's WebGL state cannot read the framebuffer
// back, and a page has no file to write. The browser build never sets -screenshot (queryFlags
// leaves it out), so this error would only name a misuse.
func saveScreenshot(_ *gls.GLS, _, _ int, path string) error {
	return fmt.Errorf("screenshot %q: the browser build cannot save screenshots", path)
}
