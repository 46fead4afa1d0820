package trainer

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/task"
)

// curriculum decides which level each episode plays and when training is
// done. The block curriculum (the seed's) gives every update one level from
// cfg.TrainLevels; the mixed one draws each episode's level from the levels listed
// in cfg.TrainLevels (unlocked in order when cfg.UnlockAt > 0), uniformly or, with
// cfg.Focus, in proportion to 0.1 + the level's failure rate in the last
// evaluation. The Trainer owns it; an engine sees an update's choice only
// (Plan).
type curriculum struct {
	cfg      Config
	mix      []int        // distinct levels of cfg.TrainLevels, ascending
	unlocked int          // how many of mix are played (1..len(mix))
	cdf      []float64    // cumulative weights of the played levels, in played order
	lastEval []EvalResult // by level
	haveEval bool
	// pendingEval: the last update's periodic evaluation was cut short by an
	// interrupt; Drive redoes it before the next update (checkpointed).
	pendingEval bool
	streak      int  // evaluations in a row that solved every trained level at cfg.StopAt
	solved      bool // a confirmation supported cfg.StopAt on every trained level (confirm.go)
	// confirmations counts the run's confirmations so far (checkpointed):
	// the next one is tested at confirmTestAt(confirmations+1, …).
	confirmations int
}

// newCurriculum starts the curriculum of cfg over a task of levels levels.
func newCurriculum(cfg Config, levels int) *curriculum {
	n := levels
	c := &curriculum{cfg: cfg, cdf: make([]float64, n), lastEval: make([]EvalResult, n)}
	for s := 0; s < n; s++ {
		if slices.Contains(cfg.TrainLevels, s) {
			c.mix = append(c.mix, s)
		}
	}
	c.unlocked = len(c.mix)
	if cfg.Curriculum == "mixed" && cfg.UnlockAt > 0 {
		c.unlocked = 1
	}
	c.updateWeights()
	return c
}

// levelOf is update u's level (1-based), or −1 when each episode draws its
// own (mixed); in that case it also refreshes the level weights.
func (c *curriculum) levelOf(u int) int {
	if c.cfg.Curriculum != "mixed" {
		return c.cfg.levelAt(u)
	}
	c.updateWeights()
	return -1
}

// played is the levels the mixed curriculum currently draws from; cdf holds
// their cumulative probabilities, in that order.
func (c *curriculum) played() []int { return c.mix[:c.unlocked] }

func (c *curriculum) updateWeights() {
	// The weights go through cdf itself: nothing is allocated per update.
	var sum float64
	clear(c.cdf)
	for i, s := range c.played() {
		c.cdf[i] = 1
		if c.cfg.Focus && c.haveEval {
			c.cdf[i] = 0.1 + (1 - c.lastEval[s].SolveRate)
		}
		sum += c.cdf[i]
	}
	var acc float64
	for i := range c.cdf {
		acc += c.cdf[i] / sum
		c.cdf[i] = acc
	}
}

// observe takes a greedy evaluation of every level: it sets the focus
// weights, unlocks the next level once the newest one is solved at
// cfg.UnlockAt, and counts the evaluations in a row that solve every trained
// level at cfg.StopAt (nominated).
func (c *curriculum) observe(ev []EvalResult) {
	copy(c.lastEval, ev)
	c.haveEval = true
	c.streak++
	for _, s := range c.mix { // the levels this run trains
		if c.cfg.StopAt == 0 || ev[s].SolveRate < c.cfg.StopAt {
			c.streak = 0
		}
	}
	if c.cfg.Curriculum == "mixed" && c.unlocked < len(c.mix) && ev[c.mix[c.unlocked-1]].SolveRate >= c.cfg.UnlockAt {
		c.unlocked++
	}
}

// nominated reports that the last evaluation solved every trained level at
// cfg.StopAt: the loop then runs a confirming evaluation (confirm.go).
func (c *curriculum) nominated() bool { return c.streak > 0 && !c.solved }

// nominates reports whether observe(ev), update u's evaluation, would
// nominate the run, without observing it: Drive plays the confirmation
// before applying either. No evaluation before cfg.StopFrom does.
func (c *curriculum) nominates(u int, ev []EvalResult) bool {
	if c.solved || c.cfg.StopAt == 0 || u < c.cfg.StopFrom {
		return false
	}
	for _, s := range c.mix {
		if ev[s].SolveRate < c.cfg.StopAt {
			return false
		}
	}
	return true
}

// pendingEval (the field) reports that the last update's evaluation was
// interrupted and is still to be done; setPendingEval marks it.
func (c *curriculum) setPendingEval(p bool) { c.pendingEval = p }

// nextConfirmTest is the test of the run's next confirmation (stoprule.go).
func (c *curriculum) nextConfirmTest() confirmTest {
	return confirmTestAt(c.confirmations+1, c.cfg.StopAt)
}

// confirm takes the confirming evaluation after update u, ev, played on
// split (its name: "" for a task that holds nothing out) with
// nextConfirmTest's episodes, and marks the run solved when
// every trained level passes that test. It changes nothing else: focus
// and unlocking follow the periodic evaluations only, so a confirmation
// that fails leaves training as it was.
func (c *curriculum) confirm(u int, split string, ev []EvalResult, subsets [][]task.Tally) Confirmation {
	test := c.nextConfirmTest()
	c.confirmations++
	cf := Confirmation{Update: u, Number: c.confirmations, Alpha: test.Alpha, Episodes: test.Episodes, Split: split,
		Solved: c.cfg.StopAt > 0, TrainingSubsets: subsets}
	for s, r := range ev {
		if r.Episodes == 0 {
			cf.Unplayed = append(cf.Unplayed, s)
			cf.SolveRate, cf.LowerBound = append(cf.SolveRate, math.NaN()), append(cf.LowerBound, math.NaN())
			continue
		}
		cf.SolveRate = append(cf.SolveRate, r.SolveRate)
		cf.LowerBound = append(cf.LowerBound, lowerBound(successes(r), r.Episodes, test.Alpha))
	}
	for _, s := range c.mix {
		if ev[s].Episodes != test.Episodes || !test.passes(successes(ev[s])) {
			cf.Solved = false
		}
		if s < len(subsets) {
			for _, t := range subsets[s] {
				if t.N > 0 && t.Rate() < c.cfg.StopAt {
					cf.Solved = false
				}
			}
		}
	}
	c.solved = cf.Solved
	return cf
}

// isSolved reports that a confirming evaluation supported a solve rate of at
// least cfg.StopAt on every trained level (confirm.go), the default recipe's
// signal to stop. It stays true once set, and is part of the checkpoint.
func (c *curriculum) isSolved() bool { return c.solved }

// label names what an update with the given levelOf trained: its level, or
// the played levels of a mixed update, e.g. "0,1".
func (c *curriculum) label(level int) string {
	if level >= 0 {
		return strconv.Itoa(level)
	}
	var b strings.Builder
	for i, s := range c.played() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(s))
	}
	return b.String()
}
