package cpu

import (
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// goldenBatchGrad runs one golden batch of m teacher-forced, computes its
// loss (the seed's, or m's estimator's) and returns its terms and the
// gradient of every parameter.
func goldenBatchGrad(t *testing.T, l *gru.Layout, params []float32, m *golden.Model, b *golden.Batch) (trainer.LossTerms, []float32) {
	steps := m.Steps
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	B := len(b.Ctx)
	w, err := gru.NewWorkspace(l, B, steps)
	require.NoError(t, err)
	require.NoError(t, b.Load(l, w))
	b.Run(l, w, params, dv)
	R := make([]float32, B)
	for i, r := range b.Rewards {
		R[i] = float32(r)
	}
	in, estimate := enginekit.Episodes{Steps: w, N: B, T: steps, Returns: R, Group: 1}, enginekit.Estimator(enginekit.SumLoss)
	if m.Estimator != "" {
		// The cases' rows pay their reward at the end: the return is every step's return-to-go.
		in.Group, in.End, in.ToGo = m.Group, b.End, make([]float32, B*steps)
		for s := 0; s < steps; s++ {
			copy(in.ToGo[s*B:], R)
		}
		estimate, _ = estimatorOf(trainer.Config{Estimator: m.Estimator, Group: m.Group, MaskAfterAnswer: m.Mask})
	}
	terms := termsOf(estimate(in, enginekit.LossScale{Batch: B, ValueCoef: 0.5, EntropyCoef: 0.01, Mask: m.Mask}, weightsOf(w)))
	grad := make([]float32, l.Size)
	table := gru.NewTableGradient(l)
	w.Backward(params, dv, grad, table.Buffer())
	table.Apply(params, grad)
	return terms, grad
}

// TestGoldenLossAndGradients: the four loss terms and d total / d every
// parameter at init, per batch, against PyTorch in float64.
func TestGoldenLossAndGradients(t *testing.T) { goldenLossAndGradients(t, golden.Dir()) }

// TestGoldenObservationsLossAndGradients is TestGoldenLossAndGradients on
// cases whose inputs carry observations, obs_emb's gradient included.
func TestGoldenObservationsLossAndGradients(t *testing.T) {
	m := goldenLossAndGradients(t, golden.ObsDir())
	require.Positive(t, m.Observations, "%s holds no observations", golden.ObsDir())
}

// TestGoldenReadLossAndGradients is TestGoldenLossAndGradients on a
// reading model (gru.Config.Read): the gradient flows back through the
// reading steps of rows of several context lengths.
func TestGoldenReadLossAndGradients(t *testing.T) {
	for _, dir := range golden.ReadDirs() {
		m := goldenLossAndGradients(t, dir)
		require.Equal(t, "read", m.Context, "%s holds no reading model", dir)
	}
}

// TestGoldenEstimatorsLossAndGradients is TestGoldenLossAndGradients and
// TestGoldenAdam on the cases of each group estimator (rloo, grpo,
// drgrpo): their loss terms, gradients and two rounds of Adam against
// PyTorch's.
func TestGoldenEstimatorsLossAndGradients(t *testing.T) {
	for _, dir := range golden.EstimatorDirs() {
		m := goldenLossAndGradients(t, dir)
		require.Contains(t, trainer.GroupEstimators, m.Estimator, "%s holds no group estimator's cases", dir)
		require.GreaterOrEqual(t, m.Group, 2, dir)
		goldenAdam(t, dir)
	}
}

func goldenLossAndGradients(t *testing.T, dir string) *golden.Model {
	m, l, params, err := golden.LoadInit(dir)
	require.NoError(t, err)
	require.NotEmpty(t, m.Batches)
	for bi := range m.Batches {
		b := &m.Batches[bi]
		terms, grad := goldenBatchGrad(t, l, params, m, b)
		for name, pair := range map[string][2]float64{
			"pg": {terms.PG, b.Loss.PG}, "value": {terms.Value, b.Loss.Value},
			"entropy": {terms.Entropy, b.Loss.Entropy}, "total": {terms.Total, b.Loss.Total},
		} {
			e := golden.RelErr([]float32{float32(pair[0])}, []float64{pair[1]})
			require.LessOrEqualf(t, e, golden.Tolerance, "batch %d loss %s: %v want %v", bi, name, pair[0], pair[1])
		}
		for _, tn := range l.Tensors {
			want, ok := b.Grad[tn.Name]
			require.Truef(t, ok, "golden grad %s missing", tn.Name)
			require.Len(t, want, tn.Size)
			e := golden.RelErr(tn.View(grad), want)
			t.Logf("batch %d grad %-18s rel err %.2e", bi, tn.Name, e)
			require.LessOrEqualf(t, e, golden.Tolerance, "batch %d grad %s", bi, tn.Name)
		}
	}
	return m
}

// TestGoldenAdam: from init, two rounds over the batches of forward, loss,
// backward, clip_grad_norm_, Adam step; the norms before clipping and every
// parameter afterwards against PyTorch.
func TestGoldenAdam(t *testing.T) { goldenAdam(t, golden.Dir()) }

// TestGoldenObservationsAdam is TestGoldenAdam with observations.
func TestGoldenObservationsAdam(t *testing.T) {
	m := goldenAdam(t, golden.ObsDir())
	require.Positive(t, m.Observations, "%s holds no observations", golden.ObsDir())
}

// TestGoldenReadAdam is TestGoldenAdam on a reading model.
func TestGoldenReadAdam(t *testing.T) {
	for _, dir := range golden.ReadDirs() {
		m := goldenAdam(t, dir)
		require.Equal(t, "read", m.Context, "%s holds no reading model", dir)
	}
}

func goldenAdam(t *testing.T, dir string) *golden.Model {
	m, l, params, err := golden.LoadInit(dir)
	require.NoError(t, err)
	require.Equal(t, []float64{enginekit.AdamBeta1, enginekit.AdamBeta2, enginekit.AdamEps}, []float64{m.Adam.Betas[0], m.Adam.Betas[1], m.Adam.Eps},
		"the golden cases were made with other Adam constants than the engines use")
	opt := newAdam(l.Size, m.Adam.LR, m.Adam.Clip)
	var norms []float64
	for step := 0; step < 2; step++ {
		for bi := range m.Batches {
			_, grad := goldenBatchGrad(t, l, params, m, &m.Batches[bi])
			norm := gradNorm(grad)
			opt.step(params, grad, norm)
			norms = append(norms, norm)
		}
	}
	require.Len(t, m.Adam.GradNormsBeforeClip, len(norms))
	for i, n := range norms {
		require.InEpsilonf(t, m.Adam.GradNormsBeforeClip[i], n, golden.Tolerance, "norm %d", i)
	}
	for _, tn := range l.Tensors {
		want, ok := m.Adam.After[tn.Name]
		require.Truef(t, ok, "golden after %s missing", tn.Name)
		e := golden.RelErr(tn.View(params), want.Data)
		t.Logf("after %-18s rel err %.2e (%s)", tn.Name, e, kernels.Backend())
		require.LessOrEqualf(t, e, golden.Tolerance, "after %s", tn.Name)
	}
	return m
}
