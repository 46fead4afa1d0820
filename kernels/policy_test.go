package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// policyCase is a rows×cols block of logits with leading dimension ld (the
// gap columns hold NaN, which no kernel may read), the actions and the
// backward's per-row weights.
type policyCase struct {
	rows, cols, ld int
	logits         []float32
	actions        []int32
	dlogp, dent    []float32
}

func newPolicyCase(r *rand.Rand, rows, cols, ld int, scale float32) policyCase {
	c := policyCase{rows: rows, cols: cols, ld: ld}
	c.logits = randSlice(r, span(rows, cols, ld), 1, scale)
	for i := range c.logits {
		if i%ld >= cols {
			c.logits[i] = float32(math.NaN())
		}
	}
	c.actions = make([]int32, rows)
	for i := range c.actions {
		c.actions[i] = int32(r.IntN(cols))
	}
	c.dlogp = randSlice(r, rows, 3, 1)
	c.dent = randSlice(r, rows, 2, 0.1)
	return c
}

// policyRefForward is log-softmax and the seed's entropy in float64.
func policyRefForward(c policyCase) (logp, ent []float64) {
	logp, ent = make([]float64, c.rows*c.cols), make([]float64, c.rows)
	for r := 0; r < c.rows; r++ {
		x := c.logits[r*c.ld : r*c.ld+c.cols]
		mx := math.Inf(-1)
		for _, v := range x {
			mx = math.Max(mx, float64(v))
		}
		var sum float64
		for _, v := range x {
			sum += math.Exp(float64(v) - mx)
		}
		lse := mx + math.Log(sum)
		for j, v := range x {
			l := float64(v) - lse
			logp[r*c.cols+j] = l
			p := math.Exp(l)
			ent[r] -= p * math.Log(p+EntropyEps)
		}
	}
	return logp, ent
}

// policyLoss is Σ_r dlogp[r]·logp[r, a_r] + dent[r]·ent[r], in float64: the
// function whose gradient PolicyBackward computes.
func policyLoss(c policyCase) float64 {
	logp, ent := policyRefForward(c)
	var l float64
	for r := 0; r < c.rows; r++ {
		l += float64(c.dlogp[r])*logp[r*c.cols+int(c.actions[r])] + float64(c.dent[r])*ent[r]
	}
	return l
}

// policyRefBackward is the backward's formula in float64 on float64 logp.
func policyRefBackward(c policyCase) []float64 {
	logp, _ := policyRefForward(c)
	dx := make([]float64, span(c.rows, c.cols, c.ld))
	for r := 0; r < c.rows; r++ {
		var pg float64
		g := make([]float64, c.cols)
		for j := range g {
			p := math.Exp(logp[r*c.cols+j])
			g[j] = -(math.Log(p+EntropyEps) + p/(p+EntropyEps))
			pg += p * g[j]
		}
		dl, de := float64(c.dlogp[r]), float64(c.dent[r])
		for j := range g {
			p := math.Exp(logp[r*c.cols+j])
			dx[r*c.ld+j] = de*p*(g[j]-pg) - dl*p
		}
		dx[r*c.ld+int(c.actions[r])] += dl
	}
	return dx
}

// policyOut holds one run's outputs with NaN guards; dlogits is the full
// ld-strided block, so the gap columns are guards too.
type policyOut struct{ logp, ent, dlogits guarded }

func newPolicyOut(c policyCase) policyOut {
	return policyOut{
		logp:    newGuarded(c.rows*c.cols, 1, nil),
		ent:     newGuarded(c.rows, 2, nil),
		dlogits: newGuarded(span(c.rows, c.cols, c.ld), 3, nil),
	}
}

func runPolicy(s *implementation, c policyCase, o policyOut) {
	s.policyFwd(c.rows, c.cols, c.logits, c.ld, o.logp.Data, o.ent.Data)
	s.policyBack(c.rows, c.cols, o.logp.Data, c.actions, c.dlogp, c.dent, o.dlogits.Data, c.ld)
}

// requireGuards checks the guards and that the gap columns of dlogits are
// still NaN.
func (o policyOut) requireGuards(t testing.TB, c policyCase, what string) {
	t.Helper()
	o.logp.requireGuards(t, what+" logp")
	o.ent.requireGuards(t, what+" ent")
	o.dlogits.requireGuards(t, what+" dlogits")
	for i, v := range o.dlogits.Data {
		if i%c.ld >= c.cols {
			require.Truef(t, math.IsNaN(float64(v)), "%s: dlogits gap cell %d was written", what, i)
		}
	}
}

func TestPolicyGenericMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, cols := range []int{1, 2, 18, 33} {
		for _, scale := range []float32{1, 10} {
			c := newPolicyCase(r, 7, cols, cols+1, scale)
			o := newPolicyOut(c)
			runPolicy(&generic, c, o)
			logp, ent := policyRefForward(c)
			dx := policyRefBackward(c)
			what := fmt.Sprintf("cols=%d scale=%v", cols, scale)
			requireClose64(t, what+" logp", o.logp.Data, logp, 1e-5, 1e-6*float64(scale))
			requireClose64(t, what+" ent", o.ent.Data, ent, 1e-5, 1e-6)
			for i, v := range o.dlogits.Data {
				if i%c.ld < c.cols {
					require.InDeltaf(t, dx[i], v, 1e-5, "%s dlogits[%d]", what, i)
				}
			}
			o.requireGuards(t, c, what)
		}
	}
}

// TestPolicyBackwardFiniteDifferences checks the backward's formula against
// central differences of Σ dlogp·logp[action] + dent·ent, for the float64
// reference and for every kernel set.
func TestPolicyBackwardFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	c := newPolicyCase(r, 3, 18, 19, 3)
	c.dent = []float32{0.3, -0.7, 1.1}
	want := make([]float64, len(c.logits))
	for i := range c.logits {
		if i%c.ld >= c.cols {
			continue
		}
		x0 := c.logits[i]
		const h = 1e-3
		c.logits[i] = x0 + h
		lp := policyLoss(c)
		hp := float64(c.logits[i]) - float64(x0)
		c.logits[i] = x0 - h
		lm := policyLoss(c)
		hm := float64(x0) - float64(c.logits[i])
		c.logits[i] = x0
		want[i] = (lp - lm) / (hp + hm)
	}
	ref := policyRefBackward(c)
	sets := []*implementation{&generic}
	if s := underTest(t); s != nil {
		sets = append(sets, s)
	}
	for i := range c.logits {
		if i%c.ld < c.cols {
			require.InDeltaf(t, want[i], ref[i], 1e-5, "reference dlogits[%d]", i)
		}
	}
	for _, s := range sets {
		o := newPolicyOut(c)
		runPolicy(s, c, o)
		for i, v := range o.dlogits.Data {
			if i%c.ld < c.cols {
				require.InDeltaf(t, want[i], v, 1e-5, "%s dlogits[%d]", s.name, i)
			}
		}
		o.requireGuards(t, c, s.name)
	}
}

// policyTolerance bounds the assembly against the Go twin. logp = x − lse is
// a difference of numbers up to the logits' size, so its absolute error
// scales with them (ulp(lse)); the entropy and the gradients are sums of
// O(1) terms of p = exp(logp), whose relative error is that same ulp(lse):
// with logits of ±80 both the twin and the assembly are ~4e-6 off the
// float64 entropy, in different directions.
func policyTolerance(scale float32) (rtol, atol, atolSums float64) {
	return 1e-5, 2e-6 * max(1, float64(scale)), 2e-6 + 2e-7*float64(scale)
}

func comparePolicy(t testing.TB, s *implementation, c policyCase, scale float32, what string) {
	t.Helper()
	want, got := newPolicyOut(c), newPolicyOut(c)
	generic.policyFwd(c.rows, c.cols, c.logits, c.ld, want.logp.Data, want.ent.Data)
	s.policyFwd(c.rows, c.cols, c.logits, c.ld, got.logp.Data, got.ent.Data)
	rtol, atol, atolSums := policyTolerance(scale)
	requireCloseFast(t, "policy logp", what+" logp", got.logp.Data, want.logp.Data, rtol, atol)
	requireCloseFast(t, "policy ent", what+" ent", got.ent.Data, want.ent.Data, rtol, atolSums)
	// Backward from the same logp (the assembly's).
	generic.policyBack(c.rows, c.cols, got.logp.Data, c.actions, c.dlogp, c.dent, want.dlogits.Data, c.ld)
	s.policyBack(c.rows, c.cols, got.logp.Data, c.actions, c.dlogp, c.dent, got.dlogits.Data, c.ld)
	requireCloseFast(t, "policy dlogits", what+" dlogits", got.dlogits.Data, want.dlogits.Data, rtol, atolSums)
	got.requireGuards(t, c, what)
}

func TestPolicyAcceleratedMatchesGeneric(t *testing.T) {
	s := underTest(t)
	if s == nil {
		return
	}
	r := rand.New(rand.NewPCG(25, 26))
	for _, rows := range oddSizes {
		for _, cols := range oddSizes[1:] {
			for _, gap := range []int{0, 1, 3} {
				c := newPolicyCase(r, rows, cols, cols+gap, 4)
				comparePolicy(t, s, c, 4, fmt.Sprintf("rows=%d cols=%d ld=%d", rows, cols, cols+gap))
			}
		}
	}
	comparePolicy(t, s, newPolicyCase(r, largeSize, 18, 19, 4), 4, "rows=large cols=18")
	comparePolicy(t, s, newPolicyCase(r, 3, largeSize, largeSize+1, 4), 4, "rows=3 cols=large")
	logMaxDiff(t, "policy logp", "policy ent", "policy dlogits")
	// Extreme logits, up to ±80: near one-hot rows, exp underflowing to 0.
	for _, cols := range []int{1, 2, 17, 18, 19} {
		c := newPolicyCase(r, 65, cols, cols+1, 80)
		for i := range c.logits[:min(len(c.logits), 2*c.ld)] { // all-equal and all-extreme rows
			if i%c.ld < cols {
				c.logits[i] = -80
			}
		}
		comparePolicy(t, s, c, 80, fmt.Sprintf("extreme cols=%d", cols))
	}
	t.Log("extreme logits (up to ±80):")
	logMaxDiff(t, "policy logp", "policy ent", "policy dlogits")
}

// TestPolicyNaNPropagates: a NaN logit makes its row's logp and entropy NaN
// (as in the Go twin) and leaves the other rows alone; a NaN weight on the
// backward spoils only its row.
func TestPolicyNaNPropagates(t *testing.T) {
	sets := []*implementation{&generic}
	if s := underTest(t); s != nil {
		sets = append(sets, s)
	}
	r := rand.New(rand.NewPCG(27, 28))
	nan := float32(math.NaN())
	const rows, cols, ld, bad = 5, 18, 19, 2
	for _, col := range []int{0, 9, 17} { // in a full chunk and in the tail
		for _, s := range sets {
			c := newPolicyCase(r, rows, cols, ld, 4)
			c.logits[bad*ld+col] = nan
			o := newPolicyOut(c)
			s.policyFwd(c.rows, c.cols, c.logits, c.ld, o.logp.Data, o.ent.Data)
			for i, v := range o.logp.Data {
				require.Equalf(t, i/cols == bad, math.IsNaN(float64(v)), "%s col %d: logp[%d] = %v", s.name, col, i, v)
			}
			for i, v := range o.ent.Data {
				require.Equalf(t, i == bad, math.IsNaN(float64(v)), "%s col %d: ent[%d] = %v", s.name, col, i, v)
			}
			s.policyBack(c.rows, c.cols, o.logp.Data, c.actions, c.dlogp, c.dent, o.dlogits.Data, c.ld)
			for i, v := range o.dlogits.Data {
				if i%ld < cols {
					require.Equalf(t, i/ld == bad, math.IsNaN(float64(v)), "%s col %d: dlogits[%d] = %v", s.name, col, i, v)
				}
			}
			o.requireGuards(t, c, s.name)
		}
	}
	if len(sets) == 2 {
		c := newPolicyCase(r, rows, cols, ld, 4)
		c.logits[bad*ld+17] = nan
		c.dent[4] = nan
		comparePolicy(t, sets[1], c, 4, "NaN")
	}
}

func TestPolicyDoesNotAllocate(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	c := newPolicyCase(r, 16, 18, 19, 4)
	o := newPolicyOut(c)
	sets := []*implementation{&generic}
	if s := underTest(t); s != nil {
		sets = append(sets, s)
	}
	for _, s := range sets {
		require.Zerof(t, testing.AllocsPerRun(10, func() {
			s.policyFwd(c.rows, c.cols, c.logits, c.ld, o.logp.Data, o.ent.Data)
		}), "%s policyFwd allocates", s.name)
		require.Zerof(t, testing.AllocsPerRun(10, func() {
			s.policyBack(c.rows, c.cols, o.logp.Data, c.actions, c.dlogp, c.dent, o.dlogits.Data, c.ld)
		}), "%s policyBack allocates", s.name)
	}
	require.Zero(t, testing.AllocsPerRun(10, func() {
		PolicyForward(c.rows, c.cols, c.logits, c.ld, o.logp.Data, o.ent.Data)
		PolicyBackward(c.rows, c.cols, o.logp.Data, c.actions, c.dlogp, c.dent, o.dlogits.Data, c.ld)
	}))
}

// FuzzPolicy compares the assembly head (forward and backward) with the Go
// twin on shapes, scale and data from the fuzzer; without assembly it checks
// the twin against the float64 reference.
func FuzzPolicy(f *testing.F) {
	f.Add(uint8(1), uint8(1), uint8(0), float32(1), uint64(1))
	f.Add(uint8(6), uint8(18), uint8(1), float32(4), uint64(2))
	f.Add(uint8(3), uint8(25), uint8(2), float32(80), uint64(3))
	f.Add(uint8(2), uint8(8), uint8(0), float32(1e-3), uint64(4))
	f.Fuzz(func(t *testing.T, rows, cols, gap uint8, scale float32, seed uint64) {
		if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) {
			scale = 1
		}
		scale = min(float32(math.Abs(float64(scale))), 80)
		r := rand.New(rand.NewPCG(seed, 31))
		c := newPolicyCase(r, int(rows%64), 1+int(cols%96), 1+int(cols%96)+int(gap%4), scale)
		what := fmt.Sprintf("rows=%d cols=%d ld=%d scale=%v", c.rows, c.cols, c.ld, scale)
		if s := accelerated; s != nil {
			comparePolicy(t, s, c, scale, what)
			return
		}
		o := newPolicyOut(c)
		runPolicy(&generic, c, o)
		logp, ent := policyRefForward(c)
		requireClose64(t, what+" logp", o.logp.Data, logp, 1e-5, 2e-6*max(1, float64(scale)))
		requireClose64(t, what+" ent", o.ent.Data, ent, 1e-5, 2e-6)
		o.requireGuards(t, c, what)
	})
}
