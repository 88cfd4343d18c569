// Command webserve builds the demo game for the browser (js/wasm) and serves it on this machine:
//
//	go run ./cmd/webserve                       builds into artifacts/web, serves on 127.0.0.1:8080
//	go run ./cmd/webserve -addr 127.0.0.1:0     any free port
//
// It prints the address to open. The page takes the window's flags as query parameters, e.g.
// /?scene=pyramid opens that level (demo/query.go lists them). The server answers on a loopback
// address only, unless -public is given.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/stagger-physics/stagger/demo/web"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "webserve:", err)
		os.Exit(2)
	}
}

// run parses args, builds the site and serves it until interrupted.
func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("webserve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to serve on")
	dir := fs.String("dir", "artifacts/web", "directory to build the site into")
	public := fs.Bool("public", false, "allow an address that is not a loopback one")
	build := fs.Bool("build", true, "build the site before serving (false: serve what -dir holds)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // the usage is printed
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *build {
		fmt.Fprintf(stdout, "building %s for js/wasm into %s\n", web.DemoPackage, *dir)
		site, err := web.Build(ctx, os.Getenv("GO"), *dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %.1f MB\n", web.WasmFile, float64(site.WasmBytes)/1e6)
	}
	ln, err := web.Listen(*addr, *public)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: web.Handler(*dir), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "serving the demo at http://%s/ (Ctrl-C stops)\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
