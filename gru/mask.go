package gru

// MaskedLogit replaces the logit of a token that the task's legal-action
// mask refuses at a step: its exp (less the log-sum) is exactly 0 in
// float32 in every kernel set, so the token is never sampled or chosen
// greedily, adds nothing to the entropy and gets no gradient, while its
// log probability stays finite (as NotActionLogit's).
const MaskedLogit float32 = -1e30

// MaskActions makes every later Step apply a legal-action mask, which the
// engine writes into Legal before each Step. It allocates the mask once; a
// workspace never masked computes exactly what it did before masks.
func (w *Workspace) MaskActions() {
	if w.legal == nil {
		w.legal = make([]bool, w.Cap*w.l.Vocab)
	}
}

// Legal is the chunk's n×V mask for the next Step, row b's token a at
// b·V+a (true: legal); nil without MaskActions.
func (w *Workspace) Legal() []bool {
	if w.legal == nil {
		return nil
	}
	return w.legal[:w.n*w.l.Vocab]
}

// maskLogits writes MaskedLogit over the illegal tokens' logits of the
// packed rows of heads (row i is episode live[i]), before the policy's
// softmax: what Greedy, Sample, the entropy and the backward then read.
func (w *Workspace) maskLogits(heads []float32, live []int32) {
	V := w.l.Vocab
	for i, b := range live {
		row := heads[i*(V+1) : i*(V+1)+V]
		for a, ok := range w.legal[int(b)*V : int(b+1)*V] {
			if !ok {
				row[a] = MaskedLogit
			}
		}
	}
}
