package sweep

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
)

// Entry is one line of a manifest: a run's id, its command line (the train
// command's flags) and the values its axes took (for reading the results
// back; the command line is what runs).
type Entry struct {
	ID     string            `json:"id"`
	Args   []string          `json:"args"`
	Values map[string]string `json:"values,omitempty"`
}

var idPattern = regexp.MustCompile(`^[0-9a-f]{16}$`)

// WriteManifest writes entries as JSON lines.
func WriteManifest(w io.Writer, entries []Entry) error {
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// ReadManifest reads a manifest file.
func ReadManifest(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseManifest(f)
}

// ParseManifest reads JSON lines of entries (blank lines are skipped),
// refusing a line that is not one, an id that is not 16 hex digits (it
// names a directory) and an id given twice.
func ParseManifest(r io.Reader) ([]Entry, error) {
	var entries []Entry
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Entry
		d := json.NewDecoder(bytes.NewReader(line))
		d.DisallowUnknownFields()
		if err := d.Decode(&e); err != nil {
			return nil, fmt.Errorf("line %d: not a manifest entry: %v", n, err)
		}
		if !idPattern.MatchString(e.ID) {
			return nil, fmt.Errorf("line %d: id %q is not 16 hex digits (sweep plan writes them)", n, e.ID)
		}
		if prev, ok := seen[e.ID]; ok {
			return nil, fmt.Errorf("line %d: id %s is line %d's too", n, e.ID, prev)
		}
		seen[e.ID] = n
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("no entries")
	}
	return entries, nil
}
