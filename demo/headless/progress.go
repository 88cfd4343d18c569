package headless

import (
	"fmt"
	"io"
	"strings"
)

// progressBar draws "[#####.....]  50%" on a terminal, redrawing in place, at most 100 times.
type progressBar struct {
	w     io.Writer
	total int
	shown int // last percentage drawn
}

func newProgressBar(w io.Writer, total int) *progressBar {
	return &progressBar{w: w, total: total, shown: -1}
}

// update draws the bar for done of total steps when the percentage changes.
func (p *progressBar) update(done int) {
	if p.w == nil || p.total == 0 {
		return
	}
	pct := done * 100 / p.total
	if pct == p.shown {
		return
	}
	p.shown = pct
	const width = 40
	n := pct * width / 100
	fmt.Fprintf(p.w, "\r[%s%s] %3d%% (%d/%d steps)", strings.Repeat("#", n), strings.Repeat(".", width-n), pct, done, p.total)
}

// finish ends the bar's line.
func (p *progressBar) finish() {
	if p.w != nil && p.total > 0 {
		fmt.Fprintln(p.w)
	}
}
