package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// IQM keeps the middle n − 2·int(n/4) sorted values, as scipy's trim_mean:
// checked against that count for every n from 1 to 12, on shuffled data.
func TestIQMCutsWholeValuesAsScipy(t *testing.T) {
	for n := 1; n <= 12; n++ {
		x := make([]float64, n)
		for i, v := range rand.New(rand.NewPCG(1, uint64(n))).Perm(n) {
			x[i] = float64(v + 1) // 1..n in a shuffled order
		}
		k := n / 4
		want := 0.0
		for v := k + 1; v <= n-k; v++ {
			want += float64(v)
		}
		want /= float64(n - 2*k)
		require.InDelta(t, want, IQM(x), 1e-12, "n=%d", n)
	}
	require.True(t, math.IsNaN(IQM(nil)))
}

func TestProbabilityOfImprovementCountsTiesHalf(t *testing.T) {
	x := Column([]float64{1, 1})
	y := Column([]float64{1, 0})
	// pairs (1,1) (1,0) (1,1) (1,0): two ties, two wins
	require.Equal(t, (2*0.5+2)/4, ProbabilityOfImprovement(x, y))
	require.Equal(t, 0.5, ProbabilityOfImprovement(x, x))
	// averaged over tasks: task 0 all wins, task 1 all losses
	require.Equal(t, 0.5, ProbabilityOfImprovement(Scores{{1, 0}}, Scores{{0, 1}}))
	require.True(t, math.IsNaN(ProbabilityOfImprovement(Scores{{1, 0}}, Scores{{0}})))
}

func TestBootstrapIsReproducible(t *testing.T) {
	m := Scores{{0.1, 0.9}, {0.5, 0.7}, {0.95, 0.2}, {0.4, 0.6}, {1, 0.3}}
	a, err := NewBootstrap(500, 3, 1).CI(m, AggregateIQM)
	require.NoError(t, err)
	b, err := NewBootstrap(500, 3, 1).CI(m, AggregateIQM)
	require.NoError(t, err)
	require.Equal(t, a, b)
	c, err := NewBootstrap(500, 4, 1).CI(m, AggregateIQM)
	require.NoError(t, err)
	require.NotEqual(t, a, c, "another seed draws other resamples")
	require.LessOrEqual(t, a.Lo, AggregateIQM(m))
	require.GreaterOrEqual(t, a.Hi, AggregateIQM(m))
}

// Bad input is an error, never a panic.
func TestBadInputIsAnError(t *testing.T) {
	b := NewBootstrap(10, 1, 1)
	for name, m := range map[string]Scores{
		"no runs":  nil,
		"no tasks": {{}},
		"ragged":   {{1, 2}, {3}},
		"NaN":      {{math.NaN()}},
		"Inf":      {{math.Inf(1)}},
	} {
		_, err := b.CI(m, AggregateIQM)
		require.Error(t, err, name)
		_, err = b.PairCI(m, Scores{{1}}, ProbabilityOfImprovement)
		require.Error(t, err, name)
	}
	_, err := Bootstrap{Reps: 0, Level: 0.95}.CI(Scores{{1}}, AggregateIQM)
	require.ErrorContains(t, err, "0 resamples")
	_, err = NewBootstrap(10, 1, 1).PairCI(Scores{{1, 2}}, Scores{{1}}, ProbabilityOfImprovement)
	require.ErrorContains(t, err, "tasks")
	require.True(t, math.IsNaN(Quantile(nil, 0.5)))
	require.Equal(t, 2.5, Quantile([]float64{4, 1, 2, 3}, 0.5))
}
