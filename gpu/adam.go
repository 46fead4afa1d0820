//go:build cgo

package gpu

// The statistics of a rollout (finish) and the optimiser step.

import (
	"math"

	"github.com/simdrl/simdrl/internal/enginekit"
)

// finish reduces the statistics of a rollout of nblocks blocks (and the
// gradient's squares when withGrad) and copies fin back to the host.
func (e *engine) finish(nblocks int, withGrad bool, entropy float64) error {
	return e.finishWith(nblocks, withGrad, entropy, 0)
}

// finishWith is finish with extra added to the loss whose finiteness
// decides whether Adam steps (the replayed episodes' weighted term).
func (e *engine) finishWith(nblocks int, withGrad bool, entropy, extra float64) error {
	nsq := 0
	if withGrad {
		nsq = e.nsq
		e.a.reset().ptr("g", e.grad).i32("n", e.l.Size).ptr("part", e.sq)
		if err := e.launch("simdrl_sumsq_partial", [3]int{nsq, 1, 1}, block256, 0, &e.a); err != nil {
			return err
		}
	}
	e.a.reset().ptr("sq", e.sq).i32("nsq", nsq).ptr("stats", e.stats).i32("nblocks", nblocks).
		f64("clip", e.cfg.Clip).f64("value_coef", e.cfg.ValueCoef).f64("entropy_coef", entropy).f64("extra_loss", extra).ptr("fin", e.fin)
	if err := e.launch("simdrl_finish", [3]int{1, 1, 1}, block256, 0, &e.a); err != nil {
		return err
	}
	return download(e.finHost[:], e.fin)
}

// adam launches the optimiser step (skipped on the device when fin says the
// loss or norm is not finite) and refreshes the derived tensors.
func (e *engine) adam() error {
	const beta1, beta2, eps = enginekit.AdamBeta1, enginekit.AdamBeta2, enginekit.AdamEps
	step := e.adamStep + 1
	bc1 := 1 - math.Pow(beta1, float64(step))
	bc2 := 1 - math.Pow(beta2, float64(step))
	e.a.reset().ptr("p", e.P).ptr("g", e.grad).ptr("m", e.m).ptr("v", e.v).i32("n", e.l.Size).ptr("fin", e.fin).
		f32("beta1", beta1).f32("beta2", beta2).f32("eps", eps).f32("step_size", float32(e.cfg.LR/bc1)).f32("bc2_sqrt", float32(math.Sqrt(bc2)))
	if err := e.launch("simdrl_adam", gridFor(e.l.Size), block256, 0, &e.a); err != nil {
		return err
	}
	return e.derive()
}
