package cpu

// SetInterrupt makes Update, EvaluateAll and GreedyPrograms stop between
// chunks once stop is closed, with trainer.ErrInterrupted and nothing
// changed (trainer.Engine); nil: never. Call it between those calls.
func (e *Engine) SetInterrupt(stop <-chan struct{}) { e.pool.stop = stop }

// closed reports whether c is closed: one non-blocking receive, no
// allocation, false for nil.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
