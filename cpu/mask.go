package cpu

import "github.com/simdrl/simdrl/task"

// maskNext writes every row's legal tokens for the next step into the
// workspace's mask (gru.Workspace.Legal), when the task's Env has one
// (task.Masker); nothing otherwise, so a task without a mask computes what
// it did before masks. A row left with no legal token breaks the task's
// contract: the violation is recovered as the chunk's error (pool.work).
func (w *worker) maskNext() {
	if w.masker == nil {
		return
	}
	legal, V := w.ws.Legal(), w.l.Vocab
	for b := 0; b < w.ws.Rows(); b++ {
		row := legal[b*V : (b+1)*V]
		w.masker.Legal(b, row)
		if err := task.CheckLegal(w.task, row); err != nil {
			panic(err)
		}
	}
}

// useMask makes w apply env's legal-action mask when it has one.
func (w *worker) useMask(env task.Env) {
	if m, ok := env.(task.Masker); ok {
		w.masker = m
		w.ws.MaskActions()
	}
}
