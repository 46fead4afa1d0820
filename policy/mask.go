package policy

import (
	"fmt"

	"github.com/simdrl/simdrl/task"
)

// Legal restricts the token the next Act picks to those legal marks, one
// flag per token (Policy.Vocab of them, at least one true): the task's
// legal-action mask at this step, as the engines apply it (task.Masker,
// task.LegalGame). Illegal tokens are never picked, greedy or sampled,
// and have probability 0 in Probs; a step without a call allows every
// token. The first call allocates the session's mask once.
func (s *Session) Legal(legal []bool) error {
	V := s.p.layout.Vocab
	switch {
	case len(legal) != V:
		return fmt.Errorf("policy: Legal needs one flag per token (%d), got %d", V, len(legal))
	case !s.started:
		return fmt.Errorf("policy: Legal before Start")
	}
	if err := task.CheckLegal(s.p.task, legal); err != nil {
		return err
	}
	s.ws.MaskActions()
	copy(s.ws.Legal(), legal)
	s.legalSet = true
	return nil
}

// allowUnlessLegal makes the next step allow every token unless Legal set
// its mask (a session whose workspace masks keeps masking otherwise).
func (s *Session) allowUnlessLegal() {
	if m := s.ws.Legal(); m != nil && !s.legalSet {
		for i := range m {
			m[i] = true
		}
	}
	s.legalSet = false
}

// maskNext writes each of the chunk's n rows' legal tokens for the next
// step into the workspace, when the task's Env has a mask (as the CPU
// engine's worker does).
func (pl *player) maskNext(n int) {
	if pl.masker == nil {
		return
	}
	legal, V := pl.ws.Legal(), len(pl.ws.Legal())/n
	for b := 0; b < n; b++ {
		row := legal[b*V : (b+1)*V]
		pl.masker.Legal(b, row)
		if err := task.CheckLegal(pl.task, row); err != nil {
			panic(err)
		}
	}
}

// useMask makes pl apply its Env's legal-action mask when it has one.
func (pl *player) useMask(t task.Task) {
	if m, ok := pl.env.(task.Masker); ok {
		pl.masker, pl.task = m, t
		pl.ws.MaskActions()
	}
}
