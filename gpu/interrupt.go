//go:build cgo

package gpu

// interrupted reports whether c (Engine.SetInterrupt) is closed: one
// non-blocking receive, false for nil.
func interrupted(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
