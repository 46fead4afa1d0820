package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
)

// OpenAppendLines is OpenAppend for a file of lines (-metrics' JSON lines),
// which it first makes end in a whole line: a regular file whose last line
// has no newline (a run killed, or a disk that filled up, in the middle of
// writing it) gets the newline if whole accepts the line, and is otherwise
// truncated to its last whole line, so that the next line appended is not
// glued to the torn one. torn is how many bytes were removed (0: none). A
// device, FIFO or descriptor is opened as OpenAppend does, untouched.
func OpenAppendLines(path string, whole func(line []byte) bool) (f *os.File, torn int64, err error) {
	t, err := resolve(path)
	if err != nil {
		return nil, 0, err
	}
	if t.kind != kindRegular {
		f, err := OpenAppend(path)
		return f, 0, err
	}
	f, err = os.OpenFile(t.path, os.O_RDWR|os.O_APPEND, 0)
	if errors.Is(err, fs.ErrPermission) {
		f, err := OpenAppend(path) // write-only: it cannot be read, so it is left as it is
		return f, 0, err
	}
	if err != nil {
		return nil, 0, err
	}
	if torn, err = endWithWholeLine(f, whole); err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, torn, nil
}

// endWithWholeLine is OpenAppendLines' repair of f.
func endWithWholeLine(f *os.File, whole func([]byte) bool) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := fi.Size()
	cut, err := lastLineEnd(f, size)
	if err != nil || cut == size {
		return 0, err
	}
	tail := make([]byte, size-cut)
	if _, err := f.ReadAt(tail, cut); err != nil {
		return 0, err
	}
	if whole(tail) {
		_, err := f.Write([]byte{'\n'})
		return 0, err
	}
	return size - cut, f.Truncate(cut)
}

// lastLineEnd is the offset just after f's last newline before size (0 for
// none), read backwards a block at a time.
func lastLineEnd(f *os.File, size int64) (int64, error) {
	const block = 64 << 10
	buf := make([]byte, block)
	for end := size; end > 0; {
		start := max(end-block, 0)
		b := buf[:end-start]
		if _, err := f.ReadAt(b, start); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}
