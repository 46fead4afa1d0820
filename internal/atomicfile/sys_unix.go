//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// wOK is access(2)'s W_OK (2 on every Unix; package syscall does not name it).
const wOK = 2

// canWrite reports whether this process may open path for writing, without
// opening it (an open of a FIFO with no reader would block).
func canWrite(path string) error {
	return syscall.Access(path, wOK)
}

// dupFile duplicates descriptor fd (the new one shares its offset, as a
// shell's redirections do) so that closing the returned file leaves fd open.
func dupFile(fd int, name string) (*os.File, error) {
	nfd, err := syscall.Dup(fd)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(nfd)
	return os.NewFile(uintptr(nfd), name), nil
}
