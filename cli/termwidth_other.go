//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package cli

import "os"

// watchWidth knows no terminal width here: the status line is drawn whole.
func watchWidth(*os.File) (w *termWidth, stop func()) {
	return &termWidth{query: func() int { return 0 }}, func() {}
}
