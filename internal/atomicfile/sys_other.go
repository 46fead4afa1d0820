//go:build !unix

package atomicfile

import (
	"errors"
	"os"
)

// canWrite opens path for writing and closes it: there is no access(2) here,
// nor FIFOs whose open blocks.
func canWrite(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// dupFile is unsupported here: the caller opens the path instead.
func dupFile(fd int, name string) (*os.File, error) {
	return nil, errors.ErrUnsupported
}
