package web

import (
	"fmt"
	"net"
	"net/http"
	"path"
)

// siteFiles are the only paths the handler serves ("/" is the page).
var siteFiles = map[string]string{
	"/":              IndexFile,
	"/" + IndexFile:  IndexFile,
	"/" + WasmFile:   WasmFile,
	"/" + WasmExecJS: WasmExecJS,
}

// contentTypes are the files' types; WebAssembly.instantiateStreaming refuses a module that is
// not served as application/wasm.
var contentTypes = map[string]string{
	IndexFile:  "text/html; charset=utf-8",
	WasmFile:   "application/wasm",
	WasmExecJS: "text/javascript; charset=utf-8",
}

// Handler serves the site in dir: the page, the module and wasm_exec.js, nothing else, and asks
// the browser not to cache them, so that a rebuilt module is loaded on the next visit.
func Handler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := siteFiles[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", contentTypes[name])
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFile(w, r, path.Join(dir, name))
	})
}

// Listen opens a TCP listener on addr and refuses an address that is not a loopback one unless
// public is set: the server is for playing and testing on this machine.
func Listen(addr string, public bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("web: address %q: %v", addr, err)
	}
	if !public {
		ip := net.ParseIP(host)
		if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return nil, fmt.Errorf("web: address %q is not a loopback address (use -public to serve beyond this machine)", addr)
		}
	}
	return net.Listen("tcp", addr)
}
