package gpu

import (
	"slices"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/trainer"
)

// curriculum is the trainer's stage bookkeeping (trainer/trainer.go:
// mix, unlocked, stageCDF, ObserveEval, Training), kept on the host: the
// kernels get the stage of a block curriculum, or the mixed curriculum's
// unlocked stages and cumulative weights, as launch parameters.
type curriculum struct {
	cfg      trainer.Config
	mix      []int
	unlocked int
	cdf      [env.NumStages]float64
	lastEval [env.NumStages]trainer.EvalResult
	haveEval bool
	streak   int // evaluations in a row that solved every trained stage at cfg.StopAt
}

func newCurriculum(cfg trainer.Config) *curriculum {
	c := &curriculum{cfg: cfg}
	for s := 0; s < env.NumStages; s++ {
		if slices.Contains(cfg.Stages, s) {
			c.mix = append(c.mix, s)
		}
	}
	c.unlocked = len(c.mix)
	if cfg.Curriculum == "mixed" && cfg.UnlockAt > 0 {
		c.unlocked = 1
	}
	return c
}

// stage is the fixed stage of update u, or -1 when each episode draws one.
func (c *curriculum) stage(u int) int {
	if c.cfg.Curriculum == "mixed" {
		return -1
	}
	return c.cfg.StageAt(u)
}

// updateWeights is Trainer.updateStageWeights.
func (c *curriculum) updateWeights() {
	var w [env.NumStages]float64
	var sum float64
	for i, s := range c.mix[:c.unlocked] {
		w[i] = 1
		if c.cfg.Focus && c.haveEval {
			w[i] = 0.1 + (1 - c.lastEval[s].SolveRate)
		}
		sum += w[i]
	}
	var acc float64
	for s := range c.cdf {
		acc += w[s] / sum
		c.cdf[s] = acc
	}
}

// packedMix is the unlocked stages one per byte, as simdrl_draw_stage reads them.
func (c *curriculum) packedMix() int {
	p := 0
	for i, s := range c.mix[:c.unlocked] {
		p |= s << (8 * i)
	}
	return p
}

// observe is Trainer.ObserveEval.
func (c *curriculum) observe(ev [env.NumStages]trainer.EvalResult) {
	c.lastEval, c.haveEval = ev, true
	c.streak++
	for _, s := range c.mix {
		if c.cfg.StopAt == 0 || ev[s].SolveRate < c.cfg.StopAt {
			c.streak = 0
		}
	}
	if c.cfg.Curriculum != "mixed" || c.unlocked >= len(c.mix) {
		return
	}
	if ev[c.mix[c.unlocked-1]].SolveRate >= c.cfg.UnlockAt {
		c.unlocked++
	}
}

// solved is Trainer.Solved: two evaluations in a row solved every trained stage.
func (c *curriculum) solved() bool { return c.streak >= 2 }

// training is Trainer.Training.
func (c *curriculum) training(stage int) string {
	if stage >= 0 {
		return strconv.Itoa(stage)
	}
	var b strings.Builder
	for i, s := range c.mix[:c.unlocked] {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(s))
	}
	return b.String()
}
