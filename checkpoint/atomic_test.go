package checkpoint

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func newer() *File {
	return &File{Metadata: map[string]string{"update": "2"}, Tensors: []Tensor{{Name: "w", Shape: []int{1000}, Data: make([]float32, 1000)}}}
}

func TestWriteFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ckpt.safetensors")
	require.NoError(t, WriteFile(p, sample()))
	g, err := ReadFile(p)
	require.NoError(t, err)
	requireSameFile(t, sample(), g)
	st, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), st.Mode().Perm())
	// Overwriting replaces the file.
	require.NoError(t, WriteFile(p, newer()))
	g, err = ReadFile(p)
	require.NoError(t, err)
	requireSameFile(t, newer(), g)
	require.Equal(t, []string{"ckpt.safetensors"}, entries(t, dir))
}

// TestWriteFileFailureMidWrite injects a failure after half of the temporary
// file is written: the old checkpoint stays intact and no temporary file is
// left behind.
func TestWriteFileFailureMidWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ckpt.safetensors")
	require.NoError(t, WriteFile(p, sample()))

	saved := writeTemp
	t.Cleanup(func() { writeTemp = saved })
	var tmpName string
	writeTemp = func(f *os.File, data []byte) error {
		tmpName = f.Name()
		if _, err := f.Write(data[:len(data)/2]); err != nil {
			return err
		}
		return errors.New("simulated crash: disk full")
	}
	err := WriteFile(p, newer())
	require.ErrorContains(t, err, "simulated crash")
	require.ErrorContains(t, err, p)
	require.True(t, strings.HasPrefix(filepath.Base(tmpName), ".ckpt.safetensors.tmp-"), tmpName)
	require.Equal(t, dir, filepath.Dir(tmpName), "temporary file in the same directory")

	g, err := ReadFile(p)
	require.NoError(t, err)
	requireSameFile(t, sample(), g)
	require.Equal(t, []string{"ckpt.safetensors"}, entries(t, dir), "no temporary litter")

	// A failed first write leaves nothing at all.
	q := filepath.Join(dir, "fresh.safetensors")
	require.Error(t, WriteFile(q, newer()))
	_, err = os.Stat(q)
	require.True(t, os.IsNotExist(err))
	require.Equal(t, []string{"ckpt.safetensors"}, entries(t, dir))
}

// TestWriteFileCrash kills a child process in the middle of WriteFile (after
// half the temporary file is written and synced, before the rename): the old
// checkpoint is intact; only a hidden temporary file is left beside it.
func TestWriteFileCrash(t *testing.T) {
	if p := os.Getenv("SIMDRL_CHECKPOINT_CRASH_CHILD"); p != "" {
		writeTemp = func(f *os.File, data []byte) error {
			f.Write(data[:len(data)/2])
			f.Sync()
			os.Exit(7) // no deferred cleanup runs, as in a real crash
			return nil
		}
		WriteFile(p, newer())
		os.Exit(0) // not reached
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "ckpt.safetensors")
	require.NoError(t, WriteFile(p, sample()))
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFileCrash$")
	cmd.Env = append(os.Environ(), "SIMDRL_CHECKPOINT_CRASH_CHILD="+p)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "child: %v\n%s", err, out)
	require.Equal(t, 7, exit.ExitCode(), "%s", out)

	g, err := ReadFile(p)
	require.NoError(t, err)
	requireSameFile(t, sample(), g)
	names := entries(t, dir)
	require.Len(t, names, 2, "%v", names)
	require.Equal(t, "ckpt.safetensors", names[1])
	require.True(t, strings.HasPrefix(names[0], ".ckpt.safetensors.tmp-"), names[0])
}

func TestWriteFileUnwritable(t *testing.T) {
	dir := t.TempDir()
	err := WriteFile(filepath.Join(dir, "no", "such", "dir", "x.safetensors"), sample())
	require.ErrorContains(t, err, "no such file or directory")

	// An invalid file is rejected before anything touches the disk.
	p := filepath.Join(dir, "x.safetensors")
	require.Error(t, WriteFile(p, &File{Tensors: []Tensor{{Name: "w", Shape: []int{2}}}}))
	require.Empty(t, entries(t, dir))

	if os.Geteuid() == 0 {
		t.Log("running as root: permissions do not stop writes, read-only directory case skipped")
		return
	}
	require.NoError(t, WriteFile(p, sample()))
	require.NoError(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	require.Error(t, WriteFile(p, newer()))
	g, err := ReadFile(p)
	require.NoError(t, err)
	requireSameFile(t, sample(), g)
	require.Equal(t, []string{"x.safetensors"}, entries(t, dir))
}

// TestWriteErrorNamesThePathOnce: a write that fails on the path itself (a
// device such as /dev/full) says the path once, not "write P: write P: …".
func TestWriteErrorNamesThePathOnce(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	err := WriteFile("/dev/full", &File{})
	require.Error(t, err)
	require.Equal(t, 1, strings.Count(err.Error(), "/dev/full"), err.Error())
	require.True(t, strings.HasPrefix(err.Error(), "checkpoint: "), err.Error())
}
