package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriteReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.json")
	require.NoError(t, Write(p, []byte("old")))
	st, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), st.Mode().Perm())

	// A failure half-way through leaves the old file and no temporary file.
	err = WriteWith(p, []byte("new content"), func(f *os.File, data []byte) error {
		_, _ = f.Write(data[:3])
		return errors.New("disk full")
	})
	require.ErrorContains(t, err, "disk full")
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "old", string(got))
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, es, 1)

	require.NoError(t, Write(p, []byte("new")))
	got, err = os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "new", string(got))
	require.Error(t, Write(filepath.Join(dir, "missing", "x"), nil))
}

func TestWriteKeepsMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ck")
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o600))
	require.NoError(t, os.Chmod(p, 0o600))
	require.NoError(t, Write(p, []byte("new")))
	st, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	requireContent(t, p, "new")
}

func requireContent(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, want, string(got))
}

func requireSymlink(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	require.NotZerof(t, fi.Mode()&fs.ModeSymlink, "%s is no longer a symbolic link (%v)", path, fi.Mode())
}

func TestSymlinkChainStaysALink(t *testing.T) {
	linkDir, targetDir := t.TempDir(), t.TempDir()
	real := filepath.Join(targetDir, "real.json")
	require.NoError(t, os.WriteFile(real, []byte("old"), 0o644))
	l1 := filepath.Join(linkDir, "l1")
	l2 := filepath.Join(linkDir, "l2")
	require.NoError(t, os.Symlink(real, l1))
	require.NoError(t, os.Symlink("l1", l2)) // relative

	var tmpDir string
	require.NoError(t, WriteWith(l2, []byte("new"), func(f *os.File, data []byte) error {
		tmpDir = filepath.Dir(f.Name())
		_, err := f.Write(data)
		return err
	}))
	require.Equal(t, targetDir, tmpDir, "the temporary file is beside the final target")
	requireSymlink(t, l1)
	requireSymlink(t, l2)
	requireContent(t, real, "new")
	es, err := os.ReadDir(targetDir)
	require.NoError(t, err)
	require.Len(t, es, 1)
	require.NoError(t, Check(l2))
}

// A relative link's ".." is taken from where its directory really is.
func TestSymlinkInLinkedDirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "b", "c"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join("b", "c"), filepath.Join(dir, "alias")))
	link := filepath.Join(dir, "alias", "l")
	require.NoError(t, os.Symlink(filepath.Join("..", "t"), link))
	require.NoError(t, Write(link, []byte("x")))
	requireSymlink(t, link)
	requireContent(t, filepath.Join(dir, "b", "t"), "x")
	require.NoFileExists(t, filepath.Join(dir, "t"))
	same, err := SameFile(link, filepath.Join(dir, "b", "t"))
	require.NoError(t, err)
	require.True(t, same)
}

func TestDanglingSymlinkCreatesTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink("new.json", link))
	require.NoError(t, Check(link))
	require.NoError(t, Write(link, []byte("x")))
	requireSymlink(t, link)
	requireContent(t, filepath.Join(dir, "new.json"), "x")

	// A link to a directory that does not exist fails the check.
	bad := filepath.Join(dir, "bad")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nodir", "x"), bad))
	require.ErrorContains(t, Check(bad), "does not exist")
}

func TestSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	require.NoError(t, os.Symlink("b", a))
	require.NoError(t, os.Symlink("a", b))
	require.ErrorContains(t, Write(a, nil), "too many levels of symbolic links")
	require.ErrorContains(t, Check(a), "too many levels of symbolic links")
	requireSymlink(t, a)
}

func TestDevNullStaysADevice(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/null")
	}
	require.NoError(t, Check("/dev/null"))
	var name string
	require.NoError(t, WriteWith("/dev/null", []byte("{}\n"), func(f *os.File, data []byte) error {
		name = f.Name()
		_, err := f.Write(data)
		return err
	}))
	require.Equal(t, "/dev/null", name, "written in place, no temporary file")
	require.NoError(t, Write("/dev/null", []byte("again")))
	fi, err := os.Lstat("/dev/null")
	require.NoError(t, err)
	require.NotZerof(t, fi.Mode()&fs.ModeCharDevice, "/dev/null is now %v", fi.Mode())
	f, err := OpenAppend("/dev/null")
	require.NoError(t, err)
	_, err = f.Write([]byte("line\n"))
	require.NoError(t, err)
	require.NoError(t, f.Close())
	fi, err = os.Lstat("/dev/null")
	require.NoError(t, err)
	require.NotZero(t, fi.Mode()&fs.ModeCharDevice)
}

// A descriptor of this process (/dev/stdout is /proc/self/fd/1) is written
// through, at its offset; the file a shell redirected it to is not replaced.
func TestProcessDescriptor(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	p := filepath.Join(t.TempDir(), "out.log")
	f, err := os.Create(p)
	require.NoError(t, err)
	defer f.Close()
	before, err := f.Stat()
	require.NoError(t, err)
	_, err = f.Write([]byte("stdout line\n"))
	require.NoError(t, err)
	fd := fmt.Sprintf("/proc/self/fd/%d", f.Fd())
	require.NoError(t, Check(fd))
	require.NoError(t, Write(fd, []byte("report\n")))
	_, err = f.Write([]byte("more stdout\n"))
	require.NoError(t, err)
	m, err := OpenAppend(fd)
	require.NoError(t, err)
	_, err = m.Write([]byte("metrics\n"))
	require.NoError(t, err)
	require.NoError(t, m.Close())
	_, err = f.Write([]byte("end\n"))
	require.NoError(t, err, "closing the duplicates leaves the descriptor open")
	after, err := os.Stat(p)
	require.NoError(t, err)
	require.True(t, os.SameFile(before, after), "the redirected file was replaced")
	requireContent(t, p, "stdout line\nreport\nmore stdout\nmetrics\nend\n")

	// A pipe (stdout piped into another program).
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	require.NoError(t, Write(fmt.Sprintf("/proc/self/fd/%d", w.Fd()), []byte("piped")))
	require.NoError(t, w.Close())
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, "piped", string(b))
}

func TestDirectoryRefused(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(".", link))
	for _, p := range []string{dir, link} {
		for name, err := range map[string]error{
			"Write": Write(p, []byte("x")),
			"Check": Check(p),
			"OpenAppend": func() error {
				f, err := OpenAppend(p)
				if f != nil {
					f.Close()
				}
				return err
			}(),
		} {
			require.ErrorContainsf(t, err, "is a directory", "%s(%s)", name, p)
			require.NotContainsf(t, err.Error(), "exists", "%s(%s)", name, p)
			require.ErrorIsf(t, err, syscall.EISDIR, "%s(%s)", name, p)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.json")
	require.NoError(t, Check(p))
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o644))
	require.NoError(t, Check(p))
	requireContent(t, p, "old")
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, es, 1, "the probe is removed")

	err = Check(filepath.Join(dir, "missing", "x"))
	require.ErrorContains(t, err, "does not exist")
	require.ErrorIs(t, err, fs.ErrNotExist)
	err = Check(filepath.Join(p, "x"))
	require.Error(t, err)
	require.ErrorContains(t, err, "not a directory")
}

func TestCheckReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: a read-only directory is writable, the check cannot fail")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no directory permissions")
	}
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	err := Check(filepath.Join(dir, "x"))
	require.ErrorContains(t, err, "cannot create a file in")
	require.ErrorContains(t, err, "permission denied")
}

func TestStaleTempFilesRemoved(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	stale := []string{".r.json.tmp-123", ".r.json.tmp-4294967295"}
	kept := []string{".r.json.tmp-", ".r.json.tmp-12a", ".r.json.tmp-1.bak", "r.json.tmp-1", ".x.json.tmp-1", ".r.jsonx.tmp-1", ".r.json.tmp-1-"}
	for _, n := range append(append([]string{}, stale...), kept...) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte("junk"), 0o644))
	}
	// A directory with a stale name is not removed either.
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".r.json.tmp-7"), 0o755))
	kept = append(kept, ".r.json.tmp-7")

	// A failed write removes nothing.
	require.Error(t, WriteWith(p, nil, func(*os.File, []byte) error { return errors.New("fail") }))
	for _, n := range stale {
		require.FileExists(t, filepath.Join(dir, n))
	}

	require.NoError(t, Write(p, []byte("new")))
	for _, n := range stale {
		require.NoFileExists(t, filepath.Join(dir, n))
	}
	for _, n := range kept {
		_, err := os.Lstat(filepath.Join(dir, n))
		require.NoErrorf(t, err, "%s was removed", n)
	}
	requireContent(t, p, "new")
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	require.NoError(t, os.WriteFile(a, []byte("a"), 0o644))
	require.NoError(t, os.WriteFile(b, []byte("b"), 0o644))
	hard, sym, dangling := filepath.Join(dir, "hard"), filepath.Join(dir, "sym"), filepath.Join(dir, "dangling")
	require.NoError(t, os.Link(a, hard))
	require.NoError(t, os.Symlink("a", sym))
	require.NoError(t, os.Symlink("new", dangling))
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	subLink := filepath.Join(dir, "sublink")
	require.NoError(t, os.Symlink("sub", subLink))
	wd, err := os.Getwd()
	require.NoError(t, err)
	rel, err := filepath.Rel(wd, filepath.Join(dir, "new"))
	require.NoError(t, err)

	for _, c := range []struct {
		x, y string
		same bool
	}{
		{a, a, true},
		{a, hard, true},
		{a, sym, true},
		{hard, sym, true},
		{a, b, false},
		{sym, b, false},
		{dir + "/./new", filepath.Join(dir, "new"), true},
		{dir + "/sub/../new", dir + "/new", true},
		{rel, filepath.Join(dir, "new"), true},
		{dangling, filepath.Join(dir, "new"), true},
		{filepath.Join(subLink, "x"), filepath.Join(sub, "x"), true},
		{filepath.Join(dir, "new"), filepath.Join(dir, "other"), false},
		{filepath.Join(dir, "new"), a, false},
	} {
		same, err := SameFile(c.x, c.y)
		require.NoError(t, err)
		require.Equalf(t, c.same, same, "SameFile(%s, %s)", c.x, c.y)
		same, err = SameFile(c.y, c.x)
		require.NoError(t, err)
		require.Equalf(t, c.same, same, "SameFile(%s, %s)", c.y, c.x)
	}
}

func TestOpenAppend(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "m.jsonl")
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink("m.jsonl", link)) // dangling until the first open
	for _, line := range []string{"1\n", "2\n"} {
		f, err := OpenAppend(link)
		require.NoError(t, err)
		_, err = f.Write([]byte(line))
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}
	requireSymlink(t, link)
	requireContent(t, real, "1\n2\n")
	st, err := os.Stat(real)
	require.NoError(t, err)
	require.True(t, st.Mode().IsRegular())
}
