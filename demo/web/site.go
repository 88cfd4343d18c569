// Package web builds and serves the browser build of the demo game (the demo command compiled
// for js/wasm) and drives it in headless Chromium for its end-to-end test and the benchmark
// report. cmd/webserve serves it for play.
package web

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// DemoPackage is the import path of the game that the site runs.
const DemoPackage = "github.com/stagger-physics/stagger/demo"

// The site's files, in its directory.
const (
	IndexFile  = "index.html"
	WasmFile   = "demo.wasm"
	WasmExecJS = "wasm_exec.js"
)

//go:embed index.html
var indexHTML []byte

// Site is a built site: its directory and the size of its wasm module.
type Site struct {
	Dir       string
	WasmBytes int64
}

// Build compiles the demo for js/wasm into dir/demo.wasm with the go command goCmd ("go" when
// empty), and writes the page and the Go toolchain's wasm_exec.js beside it, creating dir. It must
// run inside the stagger module (the go command finds the package from the working directory).
func Build(ctx context.Context, goCmd, dir string) (Site, error) {
	if goCmd == "" {
		goCmd = "go"
	}
	if dir == "" {
		return Site{}, fmt.Errorf("web: site directory is empty")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Site{}, err
	}
	wasm := filepath.Join(dir, WasmFile)
	cmd := exec.CommandContext(ctx, goCmd, "build", "-o", wasm, DemoPackage)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return Site{}, fmt.Errorf("web: GOOS=js GOARCH=wasm go build %s: %v\n%s", DemoPackage, err, out)
	}
	js, err := wasmExec(ctx, goCmd)
	if err != nil {
		return Site{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, WasmExecJS), js, 0o644); err != nil {
		return Site{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, IndexFile), indexHTML, 0o644); err != nil {
		return Site{}, err
	}
	st, err := os.Stat(wasm)
	if err != nil {
		return Site{}, err
	}
	return Site{Dir: dir, WasmBytes: st.Size()}, nil
}

// wasmExec reads the toolchain's wasm_exec.js, the JavaScript half of Go's js/wasm port, which
// must match the compiler that built the module: lib/wasm under GOROOT since Go 1.24, misc/wasm
// before.
func wasmExec(ctx context.Context, goCmd string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, goCmd, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("web: go env GOROOT: %v", err)
	}
	root := strings.TrimSpace(string(out))
	var tried []string
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		p := filepath.Join(root, sub, WasmExecJS)
		if b, err := os.ReadFile(p); err == nil {
			if !bytes.Contains(b, []byte("globalThis.Go = class")) {
				return nil, fmt.Errorf("web: %s is not Go's wasm_exec.js", p)
			}
			return b, nil
		}
		tried = append(tried, p)
	}
	return nil, fmt.Errorf("web: wasm_exec.js not found (tried %s)", strings.Join(tried, ", "))
}
