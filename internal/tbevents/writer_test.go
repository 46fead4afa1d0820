package tbevents_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/simdrl/simdrl/internal/tbdecode"
	"github.com/simdrl/simdrl/internal/tbevents"
	"github.com/stretchr/testify/require"
)

// TestWriterFileDecodes: a file written by Create and Write decodes, with
// the independent decoder (both checksums of every record checked), into
// the file-version event, then each step's scalars with their tags and
// values, stamped with the time they were written.
func TestWriterFileDecodes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs", "a") // made with its parent
	before := float64(time.Now().UnixNano()) / 1e9
	w, err := tbevents.Create(dir)
	require.NoError(t, err)
	host, err := os.Hostname()
	require.NoError(t, err)
	require.Regexp(t, "^events\\.out\\.tfevents\\.[0-9]+\\."+regexp.QuoteMeta(host)+"$", filepath.Base(w.Name()))
	steps := map[int64][]tbevents.Scalar{
		2:       {{"train/reward", 0.25}, {"eval/solve_rate/T0", 1}},
		4:       {{"loss/total", -0.0625}},
		1 << 40: {{"a long tag/with ünicode", 3.5e-7}, {"negative", -2}},
	}
	for _, s := range []int64{2, 4, 1 << 40} {
		require.NoError(t, w.Write(s, steps[s]))
	}
	require.NoError(t, w.Close())
	after := float64(time.Now().UnixNano()) / 1e9

	events, err := tbdecode.ReadFile(w.Name())
	require.NoError(t, err)
	require.Len(t, events, 4)
	require.Equal(t, tbevents.FileVersion, events[0].FileVersion)
	require.Equal(t, "brain.Event:2", events[0].FileVersion)
	require.Empty(t, events[0].Values)
	for i, s := range []int64{2, 4, 1 << 40} {
		e := events[i+1]
		require.Equal(t, s, e.Step)
		require.Empty(t, e.FileVersion)
		var want []tbdecode.Value
		for _, v := range steps[s] {
			want = append(want, tbdecode.Value{Tag: v.Tag, SimpleValue: v.Value})
		}
		require.Equal(t, want, e.Values)
	}
	for _, e := range events {
		require.GreaterOrEqual(t, e.WallTime, before-1e-3)
		require.LessOrEqual(t, e.WallTime, after+1e-3)
	}
}

// TestDecoderCatchesCorruption: flipping a bit of a record's length or of
// its data fails the decoder's checksum (so a passing decode means the
// writer's checksums are right).
func TestDecoderCatchesCorruption(t *testing.T) {
	w, err := tbevents.Create(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, w.Write(7, []tbevents.Scalar{{"x", 1}}))
	require.NoError(t, w.Close())
	good, err := os.ReadFile(w.Name())
	require.NoError(t, err)
	_, err = tbdecode.Records(good)
	require.NoError(t, err)
	for _, at := range []int{0, 12, len(good) - 5} { // the first length, the first data, the last data
		bad := append([]byte(nil), good...)
		bad[at] ^= 1
		_, err := tbdecode.Records(bad)
		require.ErrorContainsf(t, err, "checksum", "byte %d flipped", at)
	}
}

// TestCreateNeverReusesAFile: runs started in the same second (a resume
// right after its run) write separate files of the same directory, each a
// whole events file.
func TestCreateNeverReusesAFile(t *testing.T) {
	dir := t.TempDir()
	names := map[string]bool{}
	for i := range 3 {
		w, err := tbevents.Create(dir)
		require.NoError(t, err)
		require.NoError(t, w.Write(int64(i), []tbevents.Scalar{{"x", float32(i)}}))
		require.NoError(t, w.Close())
		names[w.Name()] = true
	}
	require.Len(t, names, 3)
	for name := range names {
		events, err := tbdecode.ReadFile(name)
		require.NoError(t, err)
		require.Len(t, events, 2)
		require.Equal(t, tbevents.FileVersion, events[0].FileVersion)
	}
}

// TestCheckDir: a directory, or a missing one under a directory, passes
// (and nothing is created); a file, or a missing directory under a file,
// fails with a line that names it.
func TestCheckDir(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	require.NoError(t, tbevents.CheckDir(root))
	missing := filepath.Join(root, "new", "run")
	require.NoError(t, tbevents.CheckDir(missing))
	require.NoDirExists(t, filepath.Join(root, "new"))
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	require.Len(t, entries, 1, "the probe is removed")

	require.EqualError(t, tbevents.CheckDir(file), file+" is not a directory")
	require.EqualError(t, tbevents.CheckDir(filepath.Join(file, "run")), filepath.Join(file, "run")+": "+file+" is not a directory")
}
