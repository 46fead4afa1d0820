package gru_test

import (
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/kernels"
	"github.com/stretchr/testify/require"
)

// TestGoldenForward checks the teacher-forced rollout against PyTorch:
// per-step logp of the given action, entropy, value, and greedy actions.
func TestGoldenForward(t *testing.T) { goldenForward(t, golden.Dir()) }

// TestGoldenObservationsForward is TestGoldenForward on cases whose inputs
// carry observations (emb[a] + obs_emb[o]).
func TestGoldenObservationsForward(t *testing.T) {
	m := goldenForward(t, golden.ObsDir())
	require.Positive(t, m.Observations, "%s holds no observations", golden.ObsDir())
}

// TestGoldenReadForward is TestGoldenForward on a reading model
// (Config.Read) whose batches mix contexts of several lengths, with and
// without observations.
func TestGoldenReadForward(t *testing.T) {
	for _, dir := range golden.ReadDirs() {
		m := goldenForward(t, dir)
		require.Equal(t, "read", m.Context, "%s holds no reading model", dir)
	}
}

func goldenForward(t *testing.T, dir string) *golden.Model {
	m, l, params, err := golden.LoadInit(dir)
	require.NoError(t, err)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	require.NotEmpty(t, m.Batches)
	t.Logf("backend %s, %d batches", kernels.Backend(), len(m.Batches))
	for bi, batch := range m.Batches {
		B := len(batch.Ctx)
		w, err := gru.NewWorkspace(l, B, m.Steps)
		require.NoError(t, err)
		require.NoError(t, batch.Load(l, w))
		batch.Run(l, w, params, dv)
		logp := make([]float32, B*m.Steps)
		ent := make([]float32, B*m.Steps)
		val := make([]float32, B*m.Steps)
		for b := 0; b < B; b++ {
			for s := 0; s < m.Steps; s++ {
				logp[b*m.Steps+s] = w.Logp(b, s)
				ent[b*m.Steps+s] = w.Entropy(b, s)
				val[b*m.Steps+s] = w.Value(b, s)
				want := batch.Greedy[b*m.Steps+s]
				if got := w.GreedyAction(b, s); got != want {
					// Only a tie within 1e-6 may pick another action.
					require.InDeltaf(t, logpOf(w, b, s, got), logpOf(w, b, s, want), 1e-6,
						"batch %d row %d step %d: greedy %d, PyTorch %d", bi, b, s, got, want)
				}
			}
		}
		for name, pair := range map[string]struct {
			got  []float32
			want []float64
		}{"logp": {logp, batch.Logp}, "entropy": {ent, batch.Entropy}, "value": {val, batch.Value}} {
			require.Len(t, pair.want, B*m.Steps, name)
			e := golden.RelErr(pair.got, pair.want)
			t.Logf("batch %d %-8s rel err %.2e", bi, name, e)
			require.LessOrEqualf(t, e, golden.Tolerance, "batch %d %s", bi, name)
		}
	}
	return m
}

// logpOf is the log-probability of action a (any, not only the taken one).
func logpOf(w *gru.Workspace, b, s int, a int32) float32 {
	return w.LogpOf(b, s, a)
}
