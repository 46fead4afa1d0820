package cpu

import (
	"math"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/kernels"
)

// adam is torch.optim.Adam (enginekit's Adam constants, no weight decay) with
// torch.nn.utils.clip_grad_norm_ in front of it, the clip folded into the
// update as a gradient scale.
type adam struct {
	lr, clip float64
	m, v     []float32
	steps    int
}

func newAdam(n int, lr, clip float64) *adam {
	return &adam{lr: lr, clip: clip, m: make([]float32, n), v: make([]float32, n)}
}

// gradNorm is the L2 norm of the gradient, accumulated in float64.
func gradNorm(grad []float32) float64 { return math.Sqrt(kernels.SumSquares(grad)) }

// step clips grad, whose norm is norm, to the clip norm (scale
// clip/(norm+1e-6) when below 1, as clip_grad_norm_) and applies one Adam
// step to params. grad itself is left unscaled.
func (a *adam) step(params, grad []float32, norm float64) {
	scale := float32(1)
	if c := a.clip / (norm + 1e-6); c < 1 {
		scale = float32(c)
	}
	a.steps++
	bc1 := 1 - math.Pow(enginekit.AdamBeta1, float64(a.steps))
	bc2 := 1 - math.Pow(enginekit.AdamBeta2, float64(a.steps))
	kernels.Adam(params, grad, a.m, a.v, scale, float32(enginekit.AdamBeta1), float32(enginekit.AdamBeta2), float32(enginekit.AdamEps),
		float32(a.lr/bc1), float32(math.Sqrt(bc2)))
}
