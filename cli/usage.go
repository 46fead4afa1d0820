package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// usage prints one line, `simdrl: …`, and returns the exit code: 2 for bad
// usage, 1 when an error among a is a fault of the task's code (no flag is
// wrong). Errors among a are phrased for the command line (flagError).
func usage(stderr io.Writer, format string, a ...any) int {
	code := exitUsage
	for i, v := range a {
		if err, ok := v.(error); ok {
			if taskFault(err) {
				code = exitFail
			}
			a[i] = flagError(err)
		}
	}
	// One line, always: a list of problems (a curriculum's) is joined.
	msg := strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", "; ")
	fmt.Fprintf(stderr, "simdrl: %s\n", msg)
	return code
}

// usageError is a refusal that the command prints with usage: the steps of
// run (resolveConfig, openEngine, openOutputs) return it, and run prints it.
type usageError struct {
	format string
	args   []any
}

func (e *usageError) Error() string { return fmt.Sprintf(e.format, e.args...) }

func usageErrorf(format string, a ...any) error { return &usageError{format, a} }

// usageOf prints err as usage does and returns its exit code.
func usageOf(stderr io.Writer, err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		return usage(stderr, ue.format, ue.args...)
	}
	return usage(stderr, "%v", err)
}
