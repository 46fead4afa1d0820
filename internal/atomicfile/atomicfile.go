package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// Write writes data to path (atomically where path is a regular file or
// nothing; see the package comment).
func Write(path string, data []byte) error {
	return WriteWith(path, data, func(f *os.File, data []byte) error {
		_, err := f.Write(data)
		return err
	})
}

// WriteWith is Write with the function that fills the file (tests replace it
// to simulate a failure in the middle of a write). For a regular file it
// writes a temporary file in the target's directory, syncs and closes it,
// renames it over the target, syncs the directory and then removes the
// target's stale temporary files (.<base>.tmp-<digits>, left by a process
// killed in the middle of a write). A failure at any point leaves the target
// as it was and removes the temporary file; a crash of the process leaves the
// target as it was and at most a temporary file beside it. A device or FIFO is
// written in place through writeTemp and closed (not synced).
func WriteWith(path string, data []byte, writeTemp func(*os.File, []byte) error) error {
	t, err := resolve(path)
	if err != nil {
		return err
	}
	switch t.kind {
	case kindInPlace, kindDescriptor:
		f, err := t.open(path, os.O_WRONLY)
		if err != nil {
			return err
		}
		if err := writeTemp(f, data); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	return replace(t, data, writeTemp)
}

// replace is WriteWith's atomic path.
func replace(t target, data []byte, writeTemp func(*os.File, []byte) error) error {
	dir, base := filepath.Dir(t.path), filepath.Base(t.path)
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := writeTemp(tmp, data); err != nil {
		return err
	}
	if err := tmp.Chmod(t.perm); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	if err := os.Rename(tmp.Name(), t.path); err != nil {
		os.Remove(tmp.Name())
		done = true
		return err
	}
	done = true
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	removeStale(dir, base)
	return nil
}

// removeStale removes dir/.<base>.tmp-<digits>, the temporary files of base
// that a killed process left (os.CreateTemp puts decimal digits for the *).
// Only regular files with exactly that name are removed; errors are ignored.
func removeStale(dir, base string) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + ".tmp-"
	for _, e := range es {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || rest == "" || strings.Trim(rest, "0123456789") != "" || !e.Type().IsRegular() {
			continue
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

// syncDir makes a rename in dir durable. File systems that cannot sync a
// directory (EINVAL) are let through.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// Check reports, before any work is done, whether path could be written: it
// refuses a directory, a target whose directory is missing or is not a
// directory, a directory where a file cannot be created (probed by creating
// and removing a temporary file named like Write's), and an existing device or
// FIFO that this process may not open for writing. The last is an access(2)
// check (W_OK), not an open: opening a FIFO for writing blocks until it has a
// reader, and a non-blocking open fails when the reader has not started yet,
// which a FIFO is allowed to do until the output is written. (As root,
// access(2) grants nearly everything.) The error is one line naming path.
func Check(path string) error {
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.kind == kindInPlace || t.kind == kindDescriptor {
		if err := canWrite(path); err != nil {
			return fmt.Errorf("%s: cannot write: %w", path, errnoOf(err))
		}
		return nil
	}
	if t.kind == kindRegular && (t.perm&0o222 == 0 || canWrite(t.path) != nil) {
		// Replacing it would work (the directory is writable), but a file
		// its owner made read-only is not one to destroy.
		return &Error{Msg: fmt.Sprintf("%s: is read-only (mode %04o): make it writable or write elsewhere", path, t.perm), Err: fs.ErrPermission}
	}
	dir := filepath.Dir(t.path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Msg: fmt.Sprintf("%s: directory %s does not exist", path, dir), Err: err}
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case !fi.IsDir():
		return &Error{Msg: fmt.Sprintf("%s: %s is not a directory", path, dir), Err: syscall.ENOTDIR}
	}
	probe, err := os.CreateTemp(dir, "."+filepath.Base(t.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("%s: cannot create a file in %s: %w", path, dir, errnoOf(err))
	}
	name := probe.Name()
	probe.Close()
	return os.Remove(name)
}

// OpenAppend opens path for appending (the -metrics file): a regular file is
// created (0644) if missing and appended to, a symbolic link is followed (a
// dangling one has its target created), a device or FIFO is opened for
// writing (a FIFO's open waits for a reader), and a descriptor of this process
// (/dev/stdout, /proc/self/fd/N) is duplicated. A directory is refused.
func OpenAppend(path string) (*os.File, error) {
	t, err := resolve(path)
	if err != nil {
		return nil, err
	}
	switch t.kind {
	case kindInPlace, kindDescriptor:
		return t.open(path, os.O_WRONLY|os.O_APPEND)
	}
	return os.OpenFile(t.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
}

// SameFile reports whether paths a and b name the same file, so that one
// output would overwrite another: existing files are compared as os.SameFile
// does (device and inode: hard links and symbolic links to one file are the
// same file); paths where nothing is yet are compared by the absolute path of
// their symbolic links' final target, its directory resolved (so dir/./x,
// dir/x and a dangling link to dir/x are the same). An existing file and a
// missing one are different.
func SameFile(a, b string) (bool, error) {
	ia, err := identify(a)
	if err != nil {
		return false, err
	}
	ib, err := identify(b)
	if err != nil {
		return false, err
	}
	if ia.fi != nil || ib.fi != nil {
		return ia.fi != nil && ib.fi != nil && os.SameFile(ia.fi, ib.fi), nil
	}
	return ia.name == ib.name, nil
}

// identity is an existing file's FileInfo or a missing file's canonical name.
type identity struct {
	fi   os.FileInfo
	name string
}

func identify(path string) (identity, error) {
	t, err := resolve(path)
	if err != nil {
		return identity{}, err
	}
	if t.kind != kindCreate {
		// The kernel follows the whole chain, magic links included.
		fi, err := os.Stat(path)
		if err != nil {
			return identity{}, err
		}
		return identity{fi: fi}, nil
	}
	dir := filepath.Dir(t.path)
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	if d, err := filepath.Abs(dir); err == nil {
		dir = d
	}
	return identity{name: filepath.Join(dir, filepath.Base(t.path))}, nil
}

// Error is an error with a message of its own that wraps a cause (errors.Is
// sees syscall.EISDIR, fs.ErrNotExist, ...).
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// errnoOf strips a *PathError or *LinkError of the path it names (the
// temporary file, the link) so that the message names the user's path once.
func errnoOf(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// kind is what resolve found at a path.
type kind int

const (
	kindCreate     kind = iota // nothing: created atomically
	kindRegular                // a regular file: replaced atomically
	kindInPlace                // a device, FIFO, ...: written in place
	kindDescriptor             // one of this process's descriptors: dup'ed
)

// target is what resolve found: the file at the end of path's chain of
// symbolic links.
type target struct {
	kind kind
	path string      // kindCreate, kindRegular: the file to replace
	perm fs.FileMode // kindCreate, kindRegular: the new file's permissions
	fd   int         // kindDescriptor
}

// maxLinks bounds a chain of symbolic links (Linux's own limit is 40).
const maxLinks = 40

// resolve follows path's chain of symbolic links itself (the kernel would
// too, but a rename must name the final target, and a dangling link names a
// file to create). A link in /proc/<this process>/fd is a descriptor of this
// process (/dev/stdout leads there): its target is not a path to replace.
// A link in another process's fd directory is written in place.
func resolve(path string) (target, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return target{kind: kindCreate, path: p, perm: 0o644}, nil
		}
		if err != nil {
			return target{}, err
		}
		switch m := fi.Mode(); {
		case m&fs.ModeSymlink != 0:
			if pid, fd, ok := fdLink(p); ok {
				if pid == os.Getpid() {
					return target{kind: kindDescriptor, fd: fd}, nil
				}
				return target{kind: kindInPlace}, nil
			}
			l, err := os.Readlink(p)
			if err != nil {
				return target{}, err
			}
			if !filepath.IsAbs(l) {
				// Relative to the link's directory as the kernel sees it:
				// resolved first, so that a ".." in l is not undone lexically.
				dir := filepath.Dir(p)
				if d, err := filepath.EvalSymlinks(dir); err == nil {
					dir = d
				}
				l = filepath.Join(dir, l)
			}
			p = l
		case m.IsDir():
			return target{}, &Error{Msg: path + ": is a directory", Err: syscall.EISDIR}
		case m.IsRegular():
			return target{kind: kindRegular, path: p, perm: m.Perm()}, nil
		default:
			return target{kind: kindInPlace}, nil
		}
	}
	return target{}, errors.New(path + ": too many levels of symbolic links")
}

// procFd matches /proc/<pid>/fd and /proc/<pid>/task/<tid>/fd.
var procFd = regexp.MustCompile(`^/proc/([0-9]+)(?:/task/[0-9]+)?/fd$`)

// fdLink reports whether p is a link in a /proc fd directory (Linux's magic
// links to open files), and whose descriptor it is.
func fdLink(p string) (pid, fd int, ok bool) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return 0, 0, false
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return 0, 0, false
	}
	m := procFd.FindStringSubmatch(dir)
	if m == nil {
		return 0, 0, false
	}
	pid, err1 := strconv.Atoi(m[1])
	fd, err2 := strconv.Atoi(filepath.Base(p))
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return pid, fd, true
}

// open opens an in-place target (path itself, the kernel following its
// links; never created or truncated) or duplicates a descriptor.
func (t target) open(path string, flag int) (*os.File, error) {
	if t.kind == kindDescriptor {
		f, err := dupFile(t.fd, path)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, errors.ErrUnsupported) {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return os.OpenFile(path, flag, 0)
}
