//go:build !js

package main

import (
	"fmt"
	"os"
)

// canQuit is true: the desktop's menus offer Quit, and Esc on the level list quits.
const canQuit = true

// main runs the command line: the window, or the headless runner with -headless.
func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(2)
	}
}
