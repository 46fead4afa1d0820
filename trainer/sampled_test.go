package trainer

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/simdrl/simdrl/stats"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// The sampled evaluation's options: k defaults to the samples, the
// temperature to 1; out-of-range values are refused.
func TestSampledOptions(t *testing.T) {
	n, k, temp, err := sampledOptions(Options{EvalSamples: 8})
	require.NoError(t, err)
	require.Equal(t, []any{8, 8, 1.0}, []any{n, k, temp})
	n, k, temp, err = sampledOptions(Options{EvalSamples: 8, EvalPassK: 2, EvalTemperature: 0.5})
	require.NoError(t, err)
	require.Equal(t, []any{8, 2, 0.5}, []any{n, k, temp})
	for _, bad := range []Options{{EvalSamples: -1}, {EvalSamples: 4, EvalPassK: 5}, {EvalSamples: 4, EvalPassK: -1},
		{EvalSamples: 4, EvalTemperature: -1}, {EvalSamples: MaxEpisodes + 1}} {
		_, _, _, err := sampledOptions(bad)
		require.Error(t, err, "%+v", bad)
	}
}

// passRates averages the per-instance unbiased estimates, over a subset's
// instances when given.
func TestPassRates(t *testing.T) {
	row := SampledResult{Samples: 4, K: 2}
	got := passRates(row, []int{0, 1, 4}, nil)
	require.Equal(t, 3, got.Instances)
	require.InDelta(t, (0+0.25+1)/3.0, got.PassAt1, 1e-12)
	require.InDelta(t, (0+stats.PassAtK(4, 1, 2)+1)/3, got.PassAtK, 1e-12)
	require.InDelta(t, 0.5, stats.PassAtK(4, 1, 2), 1e-12)
	sub := passRates(row, []int{0, 1, 4}, []bool{false, true, false})
	require.Equal(t, 1, sub.Instances)
	require.InDelta(t, 0.25, sub.PassAt1, 1e-12)
	none := passRates(row, nil, nil)
	require.Zero(t, none.Instances)
	require.Zero(t, none.PassAt1)
}

// An engine without sampled evaluations is refused with a line that says
// so, and none is asked for without EvalSamples.
func TestSampledNeedsAnEngineThatSamples(t *testing.T) {
	tr := &Trainer{task: echoTask{}, cfg: Config{Steps: 2, FinalEpisodes: 3}, e: &fakeEngine{steps: 2}}
	rs, err := sampledEvaluation(tr, Options{}, 3, 1, task.HeldOut, false)
	require.NoError(t, err)
	require.Nil(t, rs)
	_, err = sampledEvaluation(tr, Options{EvalSamples: 2}, 3, 1, task.HeldOut, false)
	require.ErrorContains(t, err, "no sampled evaluation")
}

// The console's lines: the final one per split and the subsets', and a
// periodic evaluation's sampled figures.
func TestPrintSampled(t *testing.T) {
	var b bytes.Buffer
	printSampled(&b, []SampledResult{
		{Level: 0, Split: "held-out", Instances: 10, Samples: 8, K: 4, Temperature: 1, PassAt1: 0.25, PassAtK: 0.5},
		{Level: 0, Split: "held-out", Subset: "odd", Instances: 4, Samples: 8, K: 4, Temperature: 1, PassAt1: 0.125, PassAtK: 0.75},
		{Level: 0, Split: "training", Instances: 10, Samples: 8, K: 4, Temperature: 1, PassAt1: 0.5, PassAtK: 1},
	})
	require.Equal(t, "Sampled evaluation (8 samples an instance at temperature 1, unbiased estimates):\n"+
		"  held-out pass@1 / pass@4 → T0=0.250 / 0.500\n"+
		"  held-out subsets → T0 odd=0.125 / 0.750 of 4\n"+
		"  training pass@1 / pass@4 → T0=0.500 / 1.000\n", b.String())
	require.Equal(t, " | sampled pass@1/pass@4 T0=0.250/0.500 T1=1.000/1.000",
		sampledLine(EvalPoint{PassAt1: []float64{0.25, 1}, PassAtK: []float64{0.5, 1}}, 4))
	require.Empty(t, sampledLine(EvalPoint{}, 4))
}

// A level the sampled evaluation did not play (no instance) is NaN in the
// periodic point, null in its metrics line, "—" on the console, and absent
// from the report's rows: never a 0 that was never measured.
func TestSampledLevelsNotPlayedAreNull(t *testing.T) {
	rs := []SampledResult{
		{Level: 0, Split: "held-out", Instances: 10, Samples: 4, K: 2, PassAt1: 0.5, PassAtK: 0.75},
		{Level: 1, Split: "held-out", Samples: 4, K: 2},
	}
	p1, pk := sampledRatesOf(rs)
	require.Equal(t, 0.5, p1[0])
	require.Equal(t, 0.75, pk[0])
	require.True(t, math.IsNaN(p1[1]) && math.IsNaN(pk[1]), "%v %v", p1, pk)

	b, err := json.Marshal(EvalPoint{PassAt1: p1, PassAtK: pk})
	require.NoError(t, err)
	require.Contains(t, string(b), `"eval_pass_at_1":[0.5,null]`)
	require.Contains(t, string(b), `"eval_pass_at_k":[0.75,null]`)
	require.Equal(t, " | sampled pass@1/pass@2 T0=0.500/0.750 T1=—", sampledLine(EvalPoint{PassAt1: p1, PassAtK: pk}, 2))

	require.Equal(t, rs[:1], playedSampled(rs))
}
