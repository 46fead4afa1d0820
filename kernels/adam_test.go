package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// adamHyper is one step's scalars as the trainer passes them: lr, betas and
// eps of torch.optim.Adam, the clip factor and the step number t.
type adamHyper struct {
	lr, beta1, beta2, eps, gradScale float64
	t                                int
}

func (h adamHyper) stepSize() float32 { return float32(h.lr / (1 - math.Pow(h.beta1, float64(h.t)))) }
func (h adamHyper) bc2Sqrt() float32  { return float32(math.Sqrt(1 - math.Pow(h.beta2, float64(h.t)))) }

var adamDefault = adamHyper{lr: 3e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, gradScale: 0.7, t: 5}

// adamState is p, g, m, v with NaN guards around the three outputs.
type adamState struct {
	p, m, v guarded
	g       []float32
}

func newAdamState(r *rand.Rand, n int, gScale float32) adamState {
	s := adamState{p: newGuarded(n, 1, r), m: newGuarded(n, 2, r), v: newGuarded(n, 3, r), g: randSlice(r, n, 1, gScale)}
	for i := range s.m.Data {
		s.m.Data[i] *= 0.1
		s.v.Data[i] = s.v.Data[i] * s.v.Data[i] * 0.01 // v ≥ 0
	}
	return s
}

func (s adamState) clone() adamState { return adamState{s.p.clone(), s.m.clone(), s.v.clone(), s.g} }

func (s adamState) run(k *implementation, h adamHyper) {
	k.adam(s.p.Data, s.g, s.m.Data, s.v.Data, float32(h.gradScale), float32(h.beta1), float32(h.beta2),
		float32(h.eps), h.stepSize(), h.bc2Sqrt())
}

func (s adamState) requireGuards(t testing.TB, what string) {
	t.Helper()
	s.p.requireGuards(t, what+" p")
	s.m.requireGuards(t, what+" m")
	s.v.requireGuards(t, what+" v")
}

// adamReference is torch.optim.Adam's step (no weight decay, no amsgrad) in
// float64, written from torch's _single_tensor_adam:
//
//	m = β1·m + (1−β1)·g;  v = β2·v + (1−β2)·g²
//	p −= lr/(1−β1^t) · m / (sqrt(v)/sqrt(1−β2^t) + eps)
//
// with the scalars as the kernel receives them (float32: the trainer passes
// float32(β2), and 1−float32(0.999) is 1.3e-5 away from torch's float32(0.001)).
func adamReference(p, g, m, v []float32, h adamHyper) (p2, m2, v2 []float64) {
	f := func(x float64) float64 { return float64(float32(x)) }
	b1, b2, gs, eps := f(h.beta1), f(h.beta2), f(h.gradScale), f(h.eps)
	p2, m2, v2 = make([]float64, len(p)), make([]float64, len(p)), make([]float64, len(p))
	bc1 := 1 - math.Pow(h.beta1, float64(h.t))
	bc2 := 1 - math.Pow(h.beta2, float64(h.t))
	for i := range p {
		gi := float64(g[i]) * gs
		m2[i] = b1*float64(m[i]) + (1-b1)*gi
		v2[i] = b2*float64(v[i]) + (1-b2)*gi*gi
		denom := math.Sqrt(v2[i])/math.Sqrt(bc2) + eps
		p2[i] = float64(p[i]) - h.lr/bc1*m2[i]/denom
	}
	return p2, m2, v2
}

func TestAdamGenericMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for _, h := range []adamHyper{adamDefault, {lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, gradScale: 1, t: 1},
		{lr: 1e-2, beta1: 0.8, beta2: 0.99, eps: 1e-6, gradScale: 0.01, t: 1000}} {
		for _, n := range []int{1, 9, 1031} {
			s := newAdamState(r, n, 1)
			s.g[0] = 0 // v and m may be 0: denominators are eps
			s.v.Data[0] = 0
			p, m, v := adamReference(s.p.Data, s.g, s.m.Data, s.v.Data, h)
			s.run(&generic, h)
			what := fmt.Sprintf("n=%d t=%d", n, h.t)
			requireClose64(t, what+" m", s.m.Data, m, 1e-6, 1e-8) // β1·m and (1−β1)·g can cancel
			requireClose64(t, what+" v", s.v.Data, v, 1e-6, 1e-12)
			// p moves by at most ~lr per step: its error is relative to the step.
			requireClose64(t, what+" p", s.p.Data, p, 1e-6, 1e-5*h.lr)
			s.requireGuards(t, what)
		}
	}
}

// compareAdam runs both sets from the same state. The assembly does the Go
// twin's IEEE operations in its order, so the tolerance is tight.
func compareAdam(t testing.TB, k *implementation, st adamState, h adamHyper, what string) {
	t.Helper()
	want, got := st.clone(), st.clone()
	want.run(&generic, h)
	got.run(k, h)
	requireCloseFast(t, "adam p", what+" p", got.p.Data, want.p.Data, 1e-6, 1e-9)
	requireCloseFast(t, "adam m", what+" m", got.m.Data, want.m.Data, 1e-6, 1e-12)
	requireCloseFast(t, "adam v", what+" v", got.v.Data, want.v.Data, 1e-6, 1e-15)
	got.requireGuards(t, what)
}

func TestAdamAcceleratedMatchesGeneric(t *testing.T) {
	k := underTest(t)
	if k == nil {
		return
	}
	r := rand.New(rand.NewPCG(43, 44))
	for _, n := range append(oddSizes, largeSize, 59788) {
		compareAdam(t, k, newAdamState(r, n, 1), adamDefault, fmt.Sprintf("n=%d", n))
		h := adamDefault
		h.t = 1 // bias corrections at their largest
		compareAdam(t, k, newAdamState(r, n, 1), h, fmt.Sprintf("t=1 n=%d", n))
	}
	// Extremes: huge and tiny gradients, zero state.
	for _, gs := range []float32{1e30, 1e-30, 0} {
		st := newAdamState(r, 37, gs)
		clear(st.m.Data)
		clear(st.v.Data)
		compareAdam(t, k, st, adamDefault, fmt.Sprintf("g scale %v", gs))
	}
	logMaxDiff(t, "adam p", "adam m", "adam v")
}

// TestAdamNaNPropagates: a NaN gradient spoils its own parameter (and its
// moments) only.
func TestAdamNaNPropagates(t *testing.T) {
	sets := []*implementation{&generic}
	if k := underTest(t); k != nil {
		sets = append(sets, k)
	}
	r := rand.New(rand.NewPCG(45, 46))
	for _, bad := range []int{3, 16, 18} { // a full chunk and the tail of 19
		for _, k := range sets {
			st := newAdamState(r, 19, 1)
			st.g[bad] = float32(math.NaN())
			st.run(k, adamDefault)
			for name, x := range map[string][]float32{"p": st.p.Data, "m": st.m.Data, "v": st.v.Data} {
				for i, v := range x {
					require.Equalf(t, i == bad, math.IsNaN(float64(v)), "%s: %s[%d] = %v with g[%d] NaN", k.name, name, i, v, bad)
				}
			}
			st.requireGuards(t, k.name)
		}
	}
}

func sumSquaresReference(x []float32) float64 {
	// float64 squares of float32 are exact; Neumaier-compensated summation.
	var s, comp float64
	for _, v := range x {
		a := float64(v) * float64(v)
		t := s + a
		if math.Abs(s) >= a {
			comp += (s - t) + a
		} else {
			comp += (a - t) + s
		}
		s = t
	}
	return s + comp
}

func TestSumSquares(t *testing.T) {
	sets := []*implementation{&generic}
	if k := underTest(t); k != nil {
		sets = append(sets, k)
	}
	r := rand.New(rand.NewPCG(47, 48))
	var worst float64
	for _, n := range append(oddSizes, largeSize, 59788, 1<<20+3) {
		x := randSlice(r, n, 1, 3)
		want := sumSquaresReference(x)
		for _, k := range sets {
			if n == 0 {
				require.Zerof(t, k.sumSquares(x), "%s n=0", k.name)
				continue
			}
			got := k.sumSquares(x)
			require.InEpsilonf(t, want, got, 1e-11, "%s n=%d", k.name, n)
			if k != &generic {
				worst = max(worst, math.Abs(got-generic.sumSquares(x))/want)
			}
		}
	}
	t.Logf("max relative difference accelerated vs generic: %.3g", worst)
	// Large values do not overflow in float64; NaN and Inf propagate.
	for _, k := range sets {
		x := randSlice(r, 41, 1, 1)
		x[40] = 3e38
		require.InEpsilonf(t, 9e76, k.sumSquares(x), 1e-6, "%s large", k.name)
		x[7] = float32(math.Inf(-1))
		require.Truef(t, math.IsInf(k.sumSquares(x), 1), "%s Inf", k.name)
		x[33] = float32(math.NaN())
		require.Truef(t, math.IsNaN(k.sumSquares(x)), "%s NaN", k.name)
		x[33], x[7] = 1, 1
		x[38] = float32(math.NaN()) // in the one-at-a-time tail
		require.Truef(t, math.IsNaN(k.sumSquares(x)), "%s NaN in the tail", k.name)
	}
}

func TestAdamDoesNotAllocate(t *testing.T) {
	r := rand.New(rand.NewPCG(49, 50))
	st := newAdamState(r, 1031, 1)
	sets := []*implementation{&generic}
	if k := underTest(t); k != nil {
		sets = append(sets, k)
	}
	h := adamDefault
	for _, k := range sets {
		require.Zerof(t, testing.AllocsPerRun(10, func() { st.run(k, h) }), "%s adam allocates", k.name)
		require.Zerof(t, testing.AllocsPerRun(10, func() { k.sumSquares(st.g) }), "%s sumSquares allocates", k.name)
	}
	require.Zero(t, testing.AllocsPerRun(10, func() {
		Adam(st.p.Data, st.g, st.m.Data, st.v.Data, 0.5, 0.9, 0.999, 1e-8, 1e-3, 0.1)
		SumSquares(st.g)
	}))
}

// FuzzAdam compares the assembly step with the Go twin on a length, a
// gradient scale and hyperparameters from the fuzzer; without assembly it
// checks the twin against the float64 reference.
func FuzzAdam(f *testing.F) {
	f.Add(uint16(1), float32(1), float32(0.9), float32(0.999), uint16(1), uint64(1))
	f.Add(uint16(59), float32(0.5), float32(0.9), float32(0.999), uint16(100), uint64(2))
	f.Add(uint16(1031), float32(1e20), float32(0.5), float32(0.9), uint16(3), uint64(3))
	f.Add(uint16(8), float32(0), float32(0), float32(0), uint16(7), uint64(4))
	f.Fuzz(func(t *testing.T, n uint16, gradScale, beta1, beta2 float32, step uint16, seed uint64) {
		finite := func(x float32, lo, hi float32) float32 {
			if math.IsNaN(float64(x)) {
				return lo
			}
			return min(max(x, lo), hi)
		}
		h := adamHyper{lr: 1e-3, eps: 1e-8, t: 1 + int(step%5000),
			gradScale: float64(finite(gradScale, -1e30, 1e30)),
			beta1:     float64(finite(beta1, 0, 0.999)), beta2: float64(finite(beta2, 0, 0.9999))}
		r := rand.New(rand.NewPCG(seed, 51))
		st := newAdamState(r, int(n%4096), 1)
		if k := accelerated; k != nil {
			compareAdam(t, k, st, h, fmt.Sprintf("n=%d %+v", n%4096, h))
			return
		}
		st.run(&generic, h)
		st.requireGuards(t, "generic")
	})
}
