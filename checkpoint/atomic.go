package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/simdrl/simdrl/internal/atomicfile"
)

// writeTemp writes data to the temporary file; tests replace it to simulate a
// crash in the middle of a write.
var writeTemp = func(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

// WriteFile encodes f and writes it to path atomically (internal/atomicfile):
// a failure or a crash at any point leaves path as it was, the old checkpoint
// or nothing.
func WriteFile(path string, f *File) error {
	data, err := Encode(f)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteWith(path, data, writeTemp); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == path { // it names the path already
			return fmt.Errorf("checkpoint: %w", err)
		}
		return fmt.Errorf("checkpoint: write %s: %w", path, err)
	}
	return nil
}

// ReadFile reads and decodes the checkpoint at path.
func ReadFile(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	f, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return f, nil
}
