package enginekit

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// groupCase: two groups of K = 3 episodes of T = 2 steps. The first
// group's returns are 1, 0, 0.5 (mean 0.5, sample std 0.5); the second's
// are all 0.25 (no variance). Episodes 0 and 3 end at their first step.
func groupCase() (Episodes, LossWeights) {
	const n, T = 6, 2
	f := &StepMajor{N: n, Logps: make([]float32, n*T), Values: make([]float32, n*T), Entropies: make([]float32, n*T)}
	for i := range f.Logps {
		f.Logps[i], f.Values[i], f.Entropies[i] = -0.5, 0.25, 1
	}
	returns := []float32{1, 0, 0.5, 0.25, 0.25, 0.25}
	togo := make([]float32, n*T)
	for t := 0; t < T; t++ {
		copy(togo[t*n:], returns)
	}
	in := Episodes{Steps: f, N: n, T: T, Returns: returns, ToGo: togo, End: []int32{0, 1, 1, 0, 1, 1}, Group: 3}
	return in, LossWeights{DLogp: make([]float32, n*T), DValue: make([]float32, n*T), DEnt: make([]float32, n*T)}
}

// TestGroupEstimatorsByHand: each estimator's policy weights −A_b/B (grpo:
// −A_b/(B·L_b)) against advantages worked out by hand, masked after each
// episode's end, the value and entropy weights as the step baseline's, and
// a group of equal returns weighted exactly 0.
func TestGroupEstimatorsByHand(t *testing.T) {
	const B = 10.0 // the update's batch: the chunk is part of it
	grpoStd := 0.5 + 1e-6
	for _, c := range []struct {
		name      string
		estimate  Estimator
		advantage [3]float64 // the first group's; the second's are 0
		perLength bool
	}{
		// leave one out: 1 − (0 + 0.5)/2, 0 − (1 + 0.5)/2, 0.5 − (1 + 0)/2
		{"rloo", RLOOLoss, [3]float64{0.75, -0.75, 0}, false},
		{"grpo", GRPOLoss, [3]float64{0.5 / grpoStd, -0.5 / grpoStd, 0}, true},
		{"drgrpo", DrGRPOLoss, [3]float64{0.5, -0.5, 0}, false},
	} {
		for _, mask := range []bool{false, true} {
			in, out := groupCase()
			s := LossScale{Batch: B, ValueCoef: 0.5, EntropyCoef: 0.1, Mask: mask}
			got := c.estimate(in, s, out)
			var wantPG float64
			for b := 0; b < in.N; b++ {
				A := 0.0
				if b < 3 {
					A = c.advantage[b]
				}
				steps := 2
				if mask && in.End[b] == 0 {
					steps = 1
				}
				w := A / B
				if c.perLength {
					w /= float64(steps)
				}
				for tt := 0; tt < 2; tt++ {
					i := tt*in.N + b
					if tt >= steps {
						require.Zero(t, out.DLogp[i], "%s mask=%v b=%d t=%d", c.name, mask, b, tt)
						require.Zero(t, out.DValue[i])
						require.Zero(t, out.DEnt[i])
						continue
					}
					wantPG += 0.5 * w // −logp · w, logp = −0.5
					require.InDeltaf(t, -w, out.DLogp[i], 1e-7, "%s mask=%v b=%d t=%d", c.name, mask, b, tt)
					require.InDelta(t, 0.5*2*(0.25-float64(in.Returns[b]))/B, out.DValue[i], 1e-7)
					require.InDelta(t, -0.1/(B*2), out.DEnt[i], 1e-9)
				}
				if b >= 3 {
					require.Equal(t, float32(0), out.DLogp[b], "%s: a group without variance weighs nothing", c.name)
					require.False(t, math.IsNaN(float64(out.DLogp[b])))
				}
			}
			require.InDelta(t, wantPG, got.PG, 1e-12, "%s mask=%v", c.name, mask)
			require.InDelta(t, got.PG+0.5*got.Value+0.1*got.Entropy, got.Total, 1e-12)
		}
	}
}

// TestGroupStats: an odd group's mean and sample std, and a group of equal
// returns whose mean is exactly theirs (so its advantages are exactly 0).
func TestGroupStats(t *testing.T) {
	g := StatsOf([]float32{2, 4, 9}) // mean 5; deviations −3, −1, 4: Σ² = 26, over K − 1 = 2
	require.Equal(t, 3, g.K)
	require.InDelta(t, 5, g.Mean, 1e-12)
	require.InDelta(t, math.Sqrt(13), g.Std, 1e-12)
	g = StatsOf([]float32{0.1, 0.1, 0.1})
	require.Equal(t, float64(float32(0.1)), g.Mean)
	require.Zero(t, g.Std)
	for _, adv := range []func(float64, GroupStats) float64{RLOOAdvantage, GRPOAdvantage, DrGRPOAdvantage} {
		require.Zero(t, adv(float64(float32(0.1)), g))
	}
}

// TestLeaveOneOut: in a group of K = 4 (returns 1, 2, 3, 6: mean 3), each
// episode's RLOO advantage is its return less the mean of the other three,
// summed here one by one; Dr. GRPO's is its return less the whole mean.
func TestLeaveOneOut(t *testing.T) {
	r := []float32{1, 2, 3, 6}
	g := StatsOf(r)
	require.Equal(t, 4, g.K)
	require.Equal(t, 3.0, g.Mean)
	require.InDelta(t, math.Sqrt((4+1+0+9)/3.0), g.Std, 1e-12) // deviations −2, −1, 0, 3 over K − 1
	for b := range r {
		others := 0.0
		for o := range r {
			if o != b {
				others += float64(r[o])
			}
		}
		want := float64(r[b]) - others/3 // 1 − 11/3, 2 − 10/3, 3 − 3, 6 − 2
		require.InDelta(t, want, RLOOAdvantage(float64(r[b]), g), 1e-12, "episode %d", b)
		require.Equal(t, float64(r[b])-3, DrGRPOAdvantage(float64(r[b]), g), "episode %d", b)
	}
	require.False(t, Flat(r))
}

// TestFlatGroup: a group whose returns are all equal is flat, and every
// estimator gives each of its episodes exactly 0 (GRPO's ε keeps 0/0 out);
// one return apart makes it not flat.
func TestFlatGroup(t *testing.T) {
	r := []float32{0.25, 0.25, 0.25}
	require.True(t, Flat(r))
	g := StatsOf(r)
	require.Zero(t, g.Std)
	for _, adv := range []func(float64, GroupStats) float64{RLOOAdvantage, GRPOAdvantage, DrGRPOAdvantage} {
		require.Equal(t, 0.0, adv(0.25, g))
	}
	require.False(t, Flat([]float32{0.25, 0.25, 0.5}))
	require.False(t, Flat([]float32{0.5, 0.25, 0.25}), "the first return differs")
}

// TestGRPOEpsilon: ε = 1e-6 sits beside the std in GRPO's denominator: in
// a group of two returns 0 and x (mean x/2, std x/√2) with x a few ε, the
// advantage of x is (x/2)/(x/√2 + ε), far from the (x/2)/(x/√2) = 1/√2
// without it.
func TestGRPOEpsilon(t *testing.T) {
	x := float64(float32(2e-6))
	g := StatsOf([]float32{0, float32(x)})
	want := (x / 2) / (x/math.Sqrt2 + 1e-6)
	require.InDelta(t, want, GRPOAdvantage(x, g), 1e-9)
	require.Less(t, GRPOAdvantage(x, g), 0.5, "ε weighs: without it the advantage would be 1/√2")
}
