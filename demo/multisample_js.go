//go:build js

package main

import "github.com/g3n/engine/gls"

// drawSingleSample does nothing in the browser: WebGL has no GL_MULTISAMPLE capability (its
// antialiasing is a property of the context), and disabling it would be an error.
func drawSingleSample(*gls.GLS, string) {}
