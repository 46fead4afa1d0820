package trainer

import (
	"math"

	"github.com/simdrl/simdrl/kernels"
)

// Adam is torch.optim.Adam (betas 0.9/0.999, eps 1e-8, no weight decay) with
// torch.nn.utils.clip_grad_norm_ in front of it, the clip folded into the
// update as a gradient scale.
type Adam struct {
	LR, Beta1, Beta2, Eps float64
	Clip                  float64
	m, v                  []float32
	step                  int
}

// NewAdam makes an optimiser for n parameters.
func NewAdam(n int, lr, clip float64) *Adam {
	return &Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, Clip: clip,
		m: make([]float32, n), v: make([]float32, n)}
}

// Steps is the number of updates applied so far.
func (a *Adam) Steps() int { return a.step }

// GradNorm is the L2 norm of the gradient, accumulated in float64.
func GradNorm(grad []float32) float64 { return math.Sqrt(kernels.SumSquares(grad)) }

// Step clips grad to norm Clip (scale Clip/(norm+1e-6) when below 1, as
// clip_grad_norm_) and applies one Adam step to params. It returns the norm
// before clipping. grad itself is left unscaled.
func (a *Adam) Step(params, grad []float32) float64 {
	norm := GradNorm(grad)
	scale := float32(1)
	if c := a.Clip / (norm + 1e-6); c < 1 {
		scale = float32(c)
	}
	a.step++
	bc1 := 1 - math.Pow(a.Beta1, float64(a.step))
	bc2 := 1 - math.Pow(a.Beta2, float64(a.step))
	kernels.Adam(params, grad, a.m, a.v, scale, float32(a.Beta1), float32(a.Beta2), float32(a.Eps),
		float32(a.LR/bc1), float32(math.Sqrt(bc2)))
	return norm
}
