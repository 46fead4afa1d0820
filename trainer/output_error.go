package trainer

import (
	"errors"
	"fmt"
)

// OutputError is a failure to write one of the run's outputs (Metrics, the
// Evaluated callback, a Reporter's Evaluated hook: a full disk, a closed
// pipe), as against a training error (a NaN, a panic in the task's code).
// The model is sound: Drive stops, still saves the last completed update
// (Options.Save) and returns it; the report's Error says what failed.
type OutputError struct {
	// Output names what failed to be written: "metrics", "the Evaluated
	// callback", or the callback's own words.
	Output string
	Err    error
}

func (e *OutputError) Error() string { return fmt.Sprintf("writing %s: %v", e.Output, e.Err) }
func (e *OutputError) Unwrap() error { return e.Err }

// outputError is err as an *OutputError of output, unless it already holds
// one (a callback's own, with its words).
func outputError(output string, err error) error {
	var oe *OutputError
	if err == nil || errors.As(err, &oe) {
		return err
	}
	return &OutputError{Output: output, Err: err}
}

// isOutputError reports whether err is, or wraps, an *OutputError.
func isOutputError(err error) bool {
	var oe *OutputError
	return errors.As(err, &oe)
}
