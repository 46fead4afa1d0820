// Package atomicfile writes output files (checkpoints, reports, plots,
// metrics) without ever destroying what was at their path:
//
//   - a regular file, or a path where nothing is, is replaced atomically: a
//     temporary file .<base>.tmp-* is written beside it, synced and renamed
//     over it, so a reader or a crash sees the old file or the new one, never
//     half of one. An existing file keeps its permission bits; a new one gets
//     0644. (Ownership and other hard links to the old file are not carried
//     over: a rename makes a new file.)
//   - a symbolic link stays a link: the file at the end of its chain is
//     replaced as above, its temporary file beside it; a dangling link has
//     its target created.
//   - anything else that exists and is not a directory (a character device
//     such as /dev/null, a FIFO, a terminal) is written in place: opened for
//     writing, never created, truncated, renamed or replaced.
//   - /dev/stdout, /dev/fd/N and /proc/self/fd/N name this process's file
//     descriptors: they are written through a duplicate of the descriptor, so
//     the output lands where the descriptor points (a terminal, a pipe, or the
//     regular file a shell redirected it to, at its current offset, the file
//     not replaced).
//   - a directory is refused ("is a directory").
//
// It imports nothing of the project (only the standard library); checkpoint
// and cmd/simdrl write through it.
package atomicfile
