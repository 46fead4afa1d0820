package cli

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheckOutputsRefusesTheSameFileTwice(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x")

	// Not there yet: the same path, then the same path spelled another way.
	err := checkOutputs([]output{{"-report", ""}, {"-save", x}, {"-metrics", ""}, {"-report", x}}, nil)
	require.EqualError(t, err, "-save and -report name the same file "+x)
	err = checkOutputs([]output{{"-save", x}, {"-report", dir + "/./x"}}, nil)
	require.EqualError(t, err, "-save "+x+" and -report "+dir+"/./x name the same file")

	// There: a hard link and a symbolic link name it too.
	require.NoError(t, os.WriteFile(x, []byte("checkpoint"), 0o644))
	hard, sym := filepath.Join(dir, "hard"), filepath.Join(dir, "sym")
	require.NoError(t, os.Link(x, hard))
	require.NoError(t, os.Symlink("x", sym))
	require.ErrorContains(t, checkOutputs([]output{{"-save", x}, {"-plot", hard}}, nil), "-save "+x+" and -plot "+hard+" name the same file")
	require.ErrorContains(t, checkOutputs([]output{{"-metrics", sym}, {"-save", x}}, nil), "name the same file")

	// Different files, and one device twice, are fine.
	require.NoError(t, checkOutputs([]output{{"-save", x}, {"-report", filepath.Join(dir, "r.json")}, {"-metrics", filepath.Join(dir, "m.jsonl")}, {"-plot", ""}}, nil))
	require.NoError(t, checkOutputs([]output{{"-save", "/dev/null"}, {"-report", "/dev/null"}}, nil))
	b, err := os.ReadFile(x)
	require.NoError(t, err)
	require.Equal(t, "checkpoint", string(b), "a check writes nothing")
}

func TestCheckOutputsNamesTheFlag(t *testing.T) {
	dir := t.TempDir()
	err := checkOutputs([]output{{"-save", filepath.Join(dir, "ok")}, {"-report", dir}}, nil)
	require.EqualError(t, err, "-report: "+dir+": is a directory")
	err = checkOutputs([]output{{"-plot", filepath.Join(dir, "missing", "c.png")}}, nil)
	require.EqualError(t, err, "-plot: "+filepath.Join(dir, "missing", "c.png")+": directory "+filepath.Join(dir, "missing")+" does not exist")
}

func TestOpenMetrics(t *testing.T) {
	dir := t.TempDir()
	_, err := openMetrics(dir, io.Discard)
	require.ErrorContains(t, err, "is a directory")
	f, err := openMetrics("/dev/null", io.Discard)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	fi, err := os.Lstat("/dev/null")
	require.NoError(t, err)
	require.NotZero(t, fi.Mode()&os.ModeCharDevice)
}
