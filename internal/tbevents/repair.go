package tbevents

import (
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Files lists dir's events files (events.out.tfevents.*), sorted; none for
// a directory that does not exist. (Not filepath.Glob: dir may hold "[".)
func Files(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range es {
		if strings.HasPrefix(e.Name(), "events.out.tfevents.") {
			names = append(names, filepath.Join(dir, e.Name()))
		}
	}
	return names, nil
}

// Torn is an events file whose last record was cut off, and the bytes of
// it that RepairDir removed.
type Torn struct {
	File  string
	Bytes int64
}

// RepairDir truncates every events file of dir whose end is a cut-off
// record (a run killed, or a disk that filled up, in the middle of writing
// it) to its last whole record, and says which it cut. A record is cut off
// when its header is incomplete or it is shorter than its header's length;
// a file damaged otherwise (a checksum that does not match) is left alone.
func RepairDir(dir string) ([]Torn, error) {
	files, err := Files(dir)
	if err != nil {
		return nil, err
	}
	var torn []Torn
	for _, name := range files {
		n, err := repairFile(name)
		if err != nil {
			return torn, err
		}
		if n > 0 {
			torn = append(torn, Torn{File: name, Bytes: n})
		}
	}
	return torn, nil
}

// repairFile truncates name after its last whole record and returns how
// many bytes it removed.
func repairFile(name string) (int64, error) {
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, err
	}
	end, err := wholeRecordsEnd(name, fi.Size())
	if err != nil || end == fi.Size() {
		return 0, err
	}
	return fi.Size() - end, os.Truncate(name, end)
}

// wholeRecordsEnd is the offset after the last whole record of the file of
// that size, reading only the records' headers; size when the file is
// whole or damaged other than by a cut.
func wholeRecordsEnd(name string, size int64) (int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var head [12]byte
	for off := int64(0); off < size; {
		if size-off < int64(len(head)) {
			return off, nil
		}
		if _, err := f.ReadAt(head[:], off); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if binary.LittleEndian.Uint32(head[8:]) != maskedCRC(head[:8]) {
			return size, nil // damaged, not cut: not ours to change
		}
		n := binary.LittleEndian.Uint64(head[:8])
		if n > uint64(size-off) || uint64(size-off)-n < 16 {
			return off, nil
		}
		off += 16 + int64(n)
	}
	return size, nil
}
