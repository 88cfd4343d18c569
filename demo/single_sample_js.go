//go:build js

package main

import "github.com/g3n/engine/gls"

// useSingleSampleWindow does nothing in the browser: whether a WebGL canvas is antialiased is
// fixed when g3n creates its context, and the page's canvas is the only one there is.
func useSingleSampleWindow(*gls.GLS) error { return nil }
