package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandlerServesTheSiteOnly: the page, the module and wasm_exec.js come back with their
// contents and types (a module must be application/wasm for instantiateStreaming) and no caching;
// any other path is not found, even a file in the directory, and a POST is refused.
func TestHandlerServesTheSiteOnly(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{IndexFile: "<html>page</html>", WasmFile: "\x00asm module", WasmExecJS: "js", "secret.txt": "no"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for _, tc := range []struct{ path, body, ctype string }{
		{"/", files[IndexFile], "text/html"},
		{"/" + WasmFile, files[WasmFile], "application/wasm"},
		{"/" + WasmExecJS, files[WasmExecJS], "text/javascript"},
	} {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != tc.body {
			t.Errorf("%s: %d %q, want 200 %q", tc.path, resp.StatusCode, body, tc.body)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, tc.ctype) {
			t.Errorf("%s: Content-Type %q, want %s", tc.path, ct, tc.ctype)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache", tc.path, cc)
		}
	}
	for _, p := range []string{"/secret.txt", "/../site.go", "/demo.wasm/x"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, resp.StatusCode)
		}
	}
	resp, err := http.Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", resp.StatusCode)
	}
}

// TestListenLoopbackOnly: loopback addresses open; another address, or a malformed one, is an
// error naming it unless public is set.
func TestListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0", "localhost:0"} {
		ln, err := Listen(addr, false)
		if err != nil {
			if addr == "[::1]:0" && strings.Contains(err.Error(), "assign requested address") {
				continue // no IPv6 loopback on this machine
			}
			t.Errorf("%s: %v", addr, err)
			continue
		}
		ln.Close()
	}
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:80", "example.com:80", "nonsense"} {
		if _, err := Listen(addr, false); err == nil || !strings.Contains(err.Error(), addr) {
			t.Errorf("%s: error %v, want one naming the address", addr, err)
		}
	}
	ln, err := Listen("0.0.0.0:0", true)
	if err != nil {
		t.Fatalf("0.0.0.0:0 with public: %v", err)
	}
	ln.Close()
}
