//go:build cgo

package gpu

// interrupted reports whether e's interrupt (Engine.SetInterrupt) is closed:
// one non-blocking receive, false for nil. at names the check for tests
// (onCheck); the host-drawn parts call it from their own goroutines.
func (e *engine) interrupted(at string) bool {
	if e.onCheck != nil {
		e.onCheck(at)
	}
	select {
	case <-e.stop:
		return true
	default:
		return false
	}
}
