package main

import (
	"os"
	"syscall/js"
)

// canQuit is false: a page has nothing to return to, so quitting would only leave a still
// canvas; the menus offer no Quit and Esc on the level list does nothing. The player closes the tab.
const canQuit = false

// main runs the game in the page's canvas (g3n's browser application looks for the canvas with
// id g3n-canvas), its settings taken from the page's query parameters. An error is written to
// the browser's console as an error, where the end-to-end test looks for it, and over the page
// for the player.
func main() {
	afterFrame = publishState
	args, err := queryArgs(js.Global().Get("location").Get("search").String())
	if err == nil {
		err = run(args, os.Stdout, os.Stderr)
	}
	if err != nil {
		msg := "demo: " + err.Error()
		js.Global().Get("console").Call("error", msg)
		doc := js.Global().Get("document")
		p := doc.Call("createElement", "p")
		p.Set("id", "stagger-error")
		p.Set("textContent", msg)
		p.Get("style").Set("cssText", "position: fixed; top: 0; left: 0; margin: 1em; color: #fff; font: 16px sans-serif")
		doc.Get("body").Call("appendChild", p)
		os.Exit(2)
	}
}
