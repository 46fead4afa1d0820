//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// A character device made for the test (a copy of /dev/null, 1:3) so that a
// regression replaces it rather than the system's /dev/null.
func TestCharDeviceWrittenInPlace(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("mknod of a character device needs root on Linux")
	}
	p := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("mknod: %v", err)
	}
	require.NoError(t, Check(p))
	require.NoError(t, Write(p, []byte("{}")))
	fi, err := os.Lstat(p)
	require.NoError(t, err)
	require.NotZerof(t, fi.Mode()&fs.ModeCharDevice, "the device is now %v", fi.Mode())
	require.Len(t, must(os.ReadDir(filepath.Dir(p))), 1)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestFIFO: a FIFO is checked without blocking and written in place, by
// Write and by OpenAppend. It waits on events only (Check's return, the
// reader's close), never on a clock: go test's -timeout stands behind a
// call that blocks.
func TestFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o644))

	// No reader: Check must not block (it would open the FIFO for writing).
	require.NoError(t, Check(p))

	// read reads the FIFO to its end in another goroutine (its open waits
	// for a writer, and a writer's for it) and sends what it read only once
	// it has closed the FIFO: a reader still open after sending would let
	// the next writer in, and the next reader would wait forever.
	read := func() chan string {
		c := make(chan string, 1)
		go func() {
			b, err := os.ReadFile(p) // opens, reads to the end, closes
			if err != nil {
				c <- err.Error()
				return
			}
			c <- string(b)
		}()
		return c
	}
	got := read()
	require.NoError(t, Write(p, []byte("report")))
	require.Equal(t, "report", <-got)

	got = read()
	f, err := OpenAppend(p)
	require.NoError(t, err)
	_, err = f.Write([]byte("metrics"))
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.Equal(t, "metrics", <-got)

	fi, err := os.Lstat(p)
	require.NoError(t, err)
	require.NotZerof(t, fi.Mode()&fs.ModeNamedPipe, "the FIFO is now %v", fi.Mode())
}
