package trainer

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressBar is Options.Progress's live status line: redrawn in place
// after every update ("\r" and erase to the end of the line), erased before
// other output. A nil one draws nothing.
type progressBar struct {
	w      io.Writer
	width  func() int // Options.ProgressWidth, or nil
	solved string     // the latest evaluation's solve rates, "" before one
}

// barCells is the bar's width in characters.
const barCells = 20

// newProgressBar draws on w, cut to width's columns (nil: never cut),
// unless quiet or w is nil.
func newProgressBar(w io.Writer, width func() int, quiet bool) *progressBar {
	if w == nil || quiet {
		return nil
	}
	return &progressBar{w: w, width: width}
}

// draw shows update u of total at rate updates per second: the bar, the
// count, the rate, the time left (an upper bound: the stop rule may end the
// run sooner) and the latest solve rates.
func (b *progressBar) draw(u, total int, rate float64) {
	if b == nil {
		return
	}
	full := min(barCells, u*barCells/max(total, 1))
	eta := time.Duration(float64(total-u) / rate * float64(time.Second)).Round(time.Second)
	line := fmt.Sprintf("[%s%s] update %d/%d  %.1f updates/s  ETA %v (at most)%s",
		strings.Repeat("#", full), strings.Repeat("-", barCells-full), u, total, rate, eta, b.solved)
	if b.width != nil {
		// One column short of the width: a line that fills the last column
		// wraps on many terminals, and "\r" then redraws only the new row.
		line = cut(line, b.width()-1)
	}
	fmt.Fprint(b.w, "\r\033[K"+line)
}

// cut is s cut to at most cols characters (every character of the line is
// one column wide); cols < 1 is taken as no width known: s whole.
func cut(s string, cols int) string {
	if cols < 1 {
		return s
	}
	for i := range s {
		if cols == 0 {
			return s[:i]
		}
		cols--
	}
	return s
}

// evaluated keeps an evaluation's solve rates for the next lines drawn.
func (b *progressBar) evaluated(ev []EvalResult) {
	if b != nil {
		b.solved = "  solve rate " + perLevelEval(ev, " ")
	}
}

// clear erases the line, so that what is printed next starts clean.
func (b *progressBar) clear() {
	if b != nil {
		fmt.Fprint(b.w, "\r\033[K")
	}
}
