package task

// Terminated versus truncated (Gymnasium's step). Transition.Done says an
// episode has ended, either way; Transition.Truncated says which of the
// ended ones were cut by their budget rather than ended by the game itself
// (its answer, or its Game's done). An estimator that bootstraps a return
// (PPO's GAE) must tell them apart: a truncated episode could have gone on,
// so its last state is worth its value; a terminated one is worth 0.
//
// The Envs of package task (a Stepwise task's games, a Scorer's scoring)
// and of the built-in tasks write Truncated themselves. A user's Stepper may: it says so by
// implementing TruncationReporter. One that does not keeps working: the
// engine infers truncation for it (InferTruncated): an episode that ended at
// its budget's last token was cut by the budget. An answer given with that
// very token is then counted as truncated too, which only a bootstrapping
// estimator reads; a Stepper that cares reports Truncated itself.

// TruncationReporter is an Env that writes Transition.Truncated itself
// (when the caller passes it: it may be nil).
type TruncationReporter interface {
	Env
	// ReportsTruncation reports whether Step writes Truncated.
	ReportsTruncation() bool
}

// ReportsTruncation reports whether env writes Transition.Truncated itself.
func ReportsTruncation(env Env) bool {
	r, ok := env.(TruncationReporter)
	return ok && r.ReportsTruncation()
}

// InferTruncated writes out.Truncated for an Env that does not report it,
// after the Step of step t (0-based) of the episodes of instances ins (row
// r plays ins[r]): a row that is done and has run its budget's tokens was
// cut by the budget. Like every Truncated flag it is read at the step that
// ended the episode (its first Done).
func InferTruncated(out Transition, t int, ins []Instance) {
	for r := range out.Truncated {
		out.Truncated[r] = out.Done[r] && int32(t+1) >= ins[r].Budget
	}
}

// BudgetEnder is a Game that learns that its budget ended: the Env calls
// EndBudget after the Step of the budget's last token when that Step did
// not end the episode (the episode is then truncated), and adds what it
// returns to that step's reward. A task may pay there (say, for how close
// it came) without counting steps itself. Score and Explain, which step the
// same Env, pay it too.
type BudgetEnder interface {
	Game
	EndBudget() (reward float64)
}
