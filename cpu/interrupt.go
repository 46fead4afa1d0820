package cpu

// SetInterrupt makes Update, EvaluateAll and GreedyPrograms stop once stop
// is closed, with trainer.ErrInterrupted and nothing changed
// (trainer.Engine); nil: never. Call it between those calls. The pool looks
// at it before each chunk and each worker between a chunk's steps (rollout
// and backward: gru.Workspace.BackwardUntil), so that a large model answers
// within a step, not a chunk. The longest stretch deaf to it is the
// backward's weight GEMMs, which take all the chunk's steps at once: about
// as much arithmetic as its backward steps together.
func (e *Engine) SetInterrupt(stop <-chan struct{}) {
	e.pool.stop = stop
	for _, w := range e.pool.workers {
		w.interrupt = stop
	}
}

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
