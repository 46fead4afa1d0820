package trainer

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/simdrl/simdrl/task"
)

// The stop rule. A periodic evaluation (cfg.EvalBatch episodes per level,
// 200 in the default recipe) that finds every trained level at ≥ cfg.StopAt
// only nominates the run: 198 of 200 is weak evidence for 0.99. A
// confirming evaluation then plays greedy episodes of every level on its
// own round (ConfirmRound), and the run stops only if every trained level
// passes the run's k-th confirmation's test (stoprule.go: an exact
// binomial test at a level α_k that sums to at most 1% over the whole run,
// on 1000 episodes the first time and more later). With StopAt = 1, which
// no finite sample supports, only a confirmation without a single failure
// counts.
//
// The confirmation plays the split that steers the run (steerSplit): the
// held-out one, but an Itemized task's training items, whose held-out
// items stay a test, and a task.TrainingSteered task's (Countdown's)
// training split. Its verdict is about that split, and says so: the
// final evaluation's line for the same split ("On training instances" for
// an Itemized task) is the figure it certified.
//
// A task that names subsets of its instances (task.Subsetter: calc's ties,
// zeros and negative intermediates) and lists them (task.Enumerator) must
// also be right on its subsets: a confirmation then plays every training
// instance of each trained level whose training split can be listed
// (maxEnumerated), and each non-empty subset's solve rate must be ≥
// cfg.StopAt. Ties are about 5% of abs(a*b-c*d)'s tuples, so 1000 sampled
// episodes hold some 50 of them, and a policy failing a fifth of its ties
// confirmed (docs/recipes.md, "Ties and the stop rule"). The training
// split, not the held-out one, keeps the held-out subsets a test; a point
// estimate, because 400 ties all correct bound the rate only at 0.987.
// The confirmation never changes the focus weights or anything else of
// training: a run that does not stop continues as if it had not run.

// Confirmation is one confirming evaluation: per level, its solve rate and
// the lower bound the stop rule compares with cfg.StopAt (levels the run
// does not train are evaluated and reported but not required).
type Confirmation struct {
	Update int `json:"update"`
	// Number counts the run's confirmations, this one included (k of the
	// stop rule's test: stoprule.go), and Alpha is its share of
	// ConfirmAlpha: each level's lower bound is at confidence 1 − Alpha.
	Number   int     `json:"number"`
	Alpha    float64 `json:"alpha"`
	Episodes int     `json:"episodes"` // per level
	// Split is the split the confirmation played and certifies: the
	// steering one ("held-out", or "training" for an Itemized task; absent
	// for a task that holds nothing out).
	Split      string `json:"split,omitempty"`
	SolveRate  rates  `json:"solve_rate"`
	LowerBound rates  `json:"lower_bound"`
	// Unplayed are the levels the split has no instance of (the tape's
	// longer sizes): never measured, they are NaN above (null in the
	// JSON), and print as "T4=—".
	Unplayed []int `json:"unplayed,omitempty"`
	Solved   bool  `json:"solved"` // every trained level passed: the run stops
	// TrainingSubsets is, per level, every listed training instance's
	// count by subset (nil for a level not checked; absent for a task
	// without subsets).
	TrainingSubsets [][]task.Tally `json:"training_subsets,omitempty"`
}

// successes recovers the count of correct episodes from a solve rate.
func successes(r EvalResult) int { return int(math.Round(r.SolveRate * float64(r.Episodes))) }

// formatConfirmation is the line the loop prints after a confirmation.
func formatConfirmation(cf Confirmation, stopAt float64) string {
	parts := make([]string, len(cf.SolveRate))
	for s := range cf.SolveRate {
		parts[s] = fmt.Sprintf("T%d=%.3f (≥%.4f)", s, cf.SolveRate[s], cf.LowerBound[s])
		if slices.Contains(cf.Unplayed, s) {
			parts[s] = fmt.Sprintf("T%d=—", s)
		}
	}
	for lv, ts := range cf.TrainingSubsets {
		for _, t := range ts {
			if t.N > 0 && t.Solved < t.N {
				parts = append(parts, fmt.Sprintf("T%d %s %d/%d", lv, t.Name, t.Solved, t.N))
			}
		}
	}
	episodes, on := "episodes", ""
	if cf.Split != "" {
		episodes, on = cf.Split+" episodes", " on "+cf.Split+" instances"
	}
	verdict := fmt.Sprintf("solved at ≥ %.3f%s: stopping after update %d", stopAt, on, cf.Update)
	if !cf.Solved {
		verdict = "not confirmed: training continues"
	}
	return fmt.Sprintf("confirmation %d on %d %s per level → %s (lower bounds at %s); %s",
		cf.Number, cf.Episodes, episodes, strings.Join(parts, " "), confidence(cf.Alpha), verdict)
}

// confidence prints 1 − alpha as a percentage that shows two digits of
// alpha: "99.39%", "99.9939%".
func confidence(alpha float64) string {
	decimals := 2
	if alpha > 0 {
		decimals = min(max(int(math.Ceil(-math.Log10(100*alpha)))+1, 0), 12)
	}
	return fmt.Sprintf("%.*f%%", decimals, 100*(1-alpha))
}
