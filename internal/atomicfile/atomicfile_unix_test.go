//go:build unix

package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

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

func TestFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(p, 0o644))

	// No reader: Check must not block.
	checked := make(chan error, 1)
	go func() { checked <- Check(p) }()
	select {
	case err := <-checked:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("Check blocked on a FIFO with no reader")
	}

	read := func() chan string {
		c := make(chan string, 1)
		go func() {
			f, err := os.Open(p)
			if err != nil {
				c <- err.Error()
				return
			}
			defer f.Close()
			b, err := io.ReadAll(f)
			if err != nil {
				c <- err.Error()
				return
			}
			c <- string(b)
		}()
		return c
	}
	wait := func(c chan string) string {
		select {
		case s := <-c:
			return s
		case <-time.After(10 * time.Second):
			t.Fatal("the reader got nothing")
			return ""
		}
	}
	got := read()
	require.NoError(t, Write(p, []byte("report")))
	require.Equal(t, "report", wait(got))

	got = read()
	f, err := OpenAppend(p)
	require.NoError(t, err)
	_, err = f.Write([]byte("metrics"))
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.Equal(t, "metrics", wait(got))

	fi, err := os.Lstat(p)
	require.NoError(t, err)
	require.NotZerof(t, fi.Mode()&fs.ModeNamedPipe, "the FIFO is now %v", fi.Mode())
}
