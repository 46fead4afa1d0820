package task

import "slices"

// LegalGame is a Game that says which tokens are legal at its next step: a
// legal-action mask (the 24 Game's refused combinations, a search's
// exhausted branches). The engines apply it to the policy's logits before
// sampling, the greedy choice and the entropy: an illegal token is never
// played and gets no gradient. A Game without one may play every token.
type LegalGame interface {
	Game
	// Legal writes, for every token of the vocabulary (len(legal) ==
	// Vocab()), whether it is legal at the episode's next step: after Reset
	// and after each Step that did not end the episode. At least one token
	// must be legal. It allocates nothing (it runs at every step).
	Legal(legal []bool)
}

// Masker is an Env (a Stepper's) whose rows say which tokens are legal at
// their next step; NewEnv of a Stepwise task whose games are LegalGames is
// one.
type Masker interface {
	Env
	// Legal writes row's legal tokens for its next step into legal
	// (len(legal) == Vocab()); every token of a row whose episode has ended.
	// At least one token must be legal. It allocates nothing.
	Legal(row int, legal []bool)
}

// Masks reports whether t's episodes have a legal-action mask: whether its
// Env is a Masker. It builds a one-row Env (the task's code runs).
func Masks(t Task) bool {
	_, ok := NewEnv(t, 1).(Masker)
	return ok
}

// CheckLegal is the violation of a mask that leaves no token legal at a
// row's next step (the policy would have nothing to play), or nil.
func CheckLegal(t Task, legal []bool) error {
	if slices.Contains(legal, true) {
		return nil
	}
	return violation("the %s task's legal-action mask leaves no token legal (task.Masker, task.LegalGame)", NameOf(t))
}

// stepwiseEnv is the Env of a Stepwise task: its games per row, with their
// mask when they have one.
func stepwiseEnv(t Stepwise, rows int) Env {
	e := newGameEnv(t, rows)
	legal := make([]LegalGame, rows)
	for r, g := range e.eps {
		lg, ok := g.(LegalGame)
		if !ok {
			return e
		}
		legal[r] = lg
	}
	return &legalGameEnv{gameEnv: e, legal: legal}
}

// legalGameEnv is a gameEnv whose games are LegalGames.
type legalGameEnv struct {
	*gameEnv
	legal []LegalGame
}

func (e *legalGameEnv) Legal(row int, legal []bool) {
	if e.done[row] {
		for i := range legal {
			legal[i] = true
		}
		return
	}
	e.legal[row].Legal(legal)
}
