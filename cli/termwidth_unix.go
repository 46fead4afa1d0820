//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package cli

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// watchWidth is f's terminal width, read again on SIGWINCH until stop.
func watchWidth(f *os.File) (w *termWidth, stop func()) {
	resized := make(chan os.Signal, 1)
	signal.Notify(resized, syscall.SIGWINCH)
	query := func() int {
		ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
		if err != nil {
			return 0
		}
		return int(ws.Col)
	}
	return &termWidth{query: query, resized: resized}, func() { signal.Stop(resized) }
}
