//go:build !purego

package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The ZMM forms of the elementwise kernels (elementwise_zmm_amd64.s) run the
// same instructions per lane as their AVX2 forms (and the policy head's
// reductions in the same order), so they must give the same bits, NaN
// payloads included. These tests run them side by side on any CPU
// with AVX-512 (the dispatch rule installs them only where 512-bit FMAs are
// full rate, but they run anywhere AVX512F is), on every odd size around
// both vector widths and both unrolls (8, 16, 2×8 and 2×16 lanes),
// unaligned, with NaN guards around every output.

// zmmSizes adds the ZMM unroll's boundaries (2×16 lanes) to oddSizes.
var zmmSizes = append(append([]int{}, oddSizes...), 47, 48, 49, 63, 64, 65, largeSize)

// zmmPair returns the avx2 set's elementwise kernels and their ZMM forms as
// two sets, or nil where this CPU has no AVX-512.
func zmmPair(t testing.TB) (avx2, zmm *implementation) {
	if !liveCPU().avx512 || !liveCPU().avx2FMA {
		t.Skip("no AVX-512 on this CPU: the ZMM forms cannot run")
	}
	a := generic
	a.name = "avx2"
	useAVX2Elementwise(&a)
	z := a
	z.name = "zmm"
	useAVX512Elementwise(&z)
	return &a, &z
}

func requireSameBits(t testing.TB, what string, got, want []float32) {
	t.Helper()
	require.Equalf(t, len(want), len(got), "%s: length", what)
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			require.FailNowf(t, "bits differ", "%s[%d]: ZMM form %v (%#08x), AVX2 form %v (%#08x)",
				what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

func (o gruOut) requireSameBits(t testing.TB, what string, want gruOut) {
	t.Helper()
	requireSameBits(t, what+" hNext", o.hNext.all, want.hNext.all)
	requireSameBits(t, what+" act", o.act.all, want.act.all)
	requireSameBits(t, what+" dgh", o.dgh.all, want.dgh.all)
	requireSameBits(t, what+" dhPrev", o.dhPrev.all, want.dhPrev.all)
	requireSameBits(t, what+" dTable", o.dTable.all, want.dTable.all)
	o.requireGuards(t, what)
}

func sameGRU(t testing.TB, r *rand.Rand, a, z *implementation, c gruCase, what string) {
	t.Helper()
	oa := newGRUOut(r, c)
	oz := oa.clone()
	runGRU(a, c, oa)
	runGRU(z, c, oz)
	oz.requireSameBits(t, "gru "+what, oa)
}

func TestZMMGRUMatchesAVX2Bits(t *testing.T) {
	a, z := zmmPair(t)
	r := rand.New(rand.NewPCG(91, 92))
	for _, rows := range []int{0, 1, 2, 3, 17} {
		for _, d := range zmmSizes {
			for _, scale := range []float32{4, 200} { // 200: every gate saturates
				sameGRU(t, r, a, z, newGRUCase(r, rows, d, scale), fmt.Sprintf("rows=%d d=%d scale=%v", rows, d, scale))
			}
		}
	}
	// NaN and infinities in every gate, in full chunks and in the tail.
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, d := range []int{17, 33, 49, 97} {
		for gate := 0; gate < 3; gate++ {
			for _, bad := range []float32{nan, inf, -inf} {
				c := newGRUCase(r, 4, d, 4)
				c.gh[1*3*d+gate*d+d-1] = bad
				c.gh[2*3*d+gate*d+3] = bad
				c.table[int(c.tokens[0])*3*d+gate*d+1] = bad
				c.hPrev[3*d+d/2] = bad
				c.dhNext[d-2] = bad
				sameGRU(t, r, a, z, c, fmt.Sprintf("d=%d gate %d %v", d, gate, bad))
			}
		}
	}
}

func TestZMMAdamMatchesAVX2Bits(t *testing.T) {
	a, z := zmmPair(t)
	r := rand.New(rand.NewPCG(93, 94))
	run := func(st adamState, h adamHyper, what string) {
		t.Helper()
		sz := st.clone()
		st.run(a, h)
		sz.run(z, h)
		requireSameBits(t, what+" p", sz.p.all, st.p.all)
		requireSameBits(t, what+" m", sz.m.all, st.m.all)
		requireSameBits(t, what+" v", sz.v.all, st.v.all)
		sz.requireGuards(t, what)
	}
	for _, n := range append(zmmSizes, 59788) {
		run(newAdamState(r, n, 1), adamDefault, fmt.Sprintf("n=%d", n))
		h := adamDefault
		h.t = 1
		run(newAdamState(r, n, 1), h, fmt.Sprintf("t=1 n=%d", n))
	}
	for _, gs := range []float32{1e30, 1e-30, 0} {
		st := newAdamState(r, 37, gs)
		clear(st.m.Data)
		clear(st.v.Data)
		run(st, adamDefault, fmt.Sprintf("g scale %v", gs))
	}
	st := newAdamState(r, 35, 1)
	st.g[3], st.g[20], st.g[34] = float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))
	run(st, adamDefault, "NaN and infinities")
}

// zmmVectorInputs is n values misaligned by shift, with the special values
// sprinkled over full chunks and the tail.
func zmmVectorInputs(r *rand.Rand, n, shift int, scale float32) []float32 {
	src := randSlice(r, n, shift, scale)
	special := []float32{0, float32(math.Copysign(0, -1)), 95, -95, 88.7, -103.5, 9.5, -9.5, 1e-30, -1e-42,
		float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32}
	for i, v := range special {
		if j := (i * 7) % max(n, 1); n > 0 {
			src[j] = v
		}
	}
	return src
}

func TestZMMVectorMatchesAVX2Bits(t *testing.T) {
	a, z := zmmPair(t)
	r := rand.New(rand.NewPCG(95, 96))
	for _, n := range zmmSizes {
		for shift := 0; shift < 3; shift++ {
			for _, scale := range []float32{1, 12, 120} {
				sameVector(t, a, z, zmmVectorInputs(r, n, shift, scale), shift, fmt.Sprintf("n=%d shift=%d scale=%v", n, shift, scale))
			}
		}
	}
}

func sameVector(t testing.TB, a, z *implementation, src []float32, shift int, what string) {
	t.Helper()
	n := len(src)
	for _, k := range []struct {
		name string
		a, z func(dst, src []float32)
	}{{"tanh", a.tanh, z.tanh}, {"exp", a.exp, z.exp}} {
		wa, wz := newGuarded(n, shift, nil), newGuarded(n, shift, nil)
		k.a(wa.Data, src)
		k.z(wz.Data, src)
		requireSameBits(t, k.name+" "+what, wz.all, wa.all)
		wz.requireGuards(t, k.name+" "+what)
		// In place, as the callers use it.
		copy(wz.Data, src)
		k.z(wz.Data, wz.Data)
		requireSameBits(t, k.name+" in place "+what, wz.all, wa.all)
	}
}

func (o policyOut) requireSameBits(t testing.TB, c policyCase, what string, want policyOut) {
	t.Helper()
	requireSameBits(t, what+" logp", o.logp.all, want.logp.all)
	requireSameBits(t, what+" ent", o.ent.all, want.ent.all)
	requireSameBits(t, what+" dlogits", o.dlogits.all, want.dlogits.all)
	o.requireGuards(t, c, what)
}

func samePolicy(t testing.TB, a, z *implementation, c policyCase, what string) {
	t.Helper()
	oa, oz := newPolicyOut(c), newPolicyOut(c)
	runPolicy(a, c, oa)
	runPolicy(z, c, oz)
	oz.requireSameBits(t, c, "policy "+what, oa)
}

func TestZMMPolicyMatchesAVX2Bits(t *testing.T) {
	a, z := zmmPair(t)
	r := rand.New(rand.NewPCG(98, 99))
	for _, rows := range []int{0, 1, 2, 3, 4, 5, 6, 7, 17, 96, 97} {
		for _, cols := range zmmSizes[1:] {
			for _, gap := range []int{0, 1, 3} {
				for _, scale := range []float32{4, 80} {
					samePolicy(t, a, z, newPolicyCase(r, rows, cols, cols+gap, scale),
						fmt.Sprintf("rows=%d cols=%d ld=%d scale=%v", rows, cols, cols+gap, scale))
				}
			}
		}
	}
	samePolicy(t, a, z, newPolicyCase(r, largeSize, 18, 19, 4), "rows=large cols=18")
	// All-equal and all-extreme rows; NaN and infinities in full chunks,
	// in the tail and in the backward's weights.
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, cols := range []int{1, 2, 8, 9, 17, 18, 19} {
		for _, bad := range []float32{nan, inf, -inf} {
			c := newPolicyCase(r, 7, cols, cols+1, 80)
			for i := range c.logits[:2*c.ld] {
				if i%c.ld < cols {
					c.logits[i] = -80
				}
			}
			c.logits[2*c.ld+cols-1] = bad
			c.logits[3*c.ld] = bad
			c.logits[4*c.ld+cols/2] = -bad
			c.dent[5], c.dlogp[6] = bad, bad
			samePolicy(t, a, z, c, fmt.Sprintf("cols=%d %v", cols, bad))
		}
	}
}

// FuzzZMMMatchesAVX2Bits: sizes, scales and data from the fuzzer, every ZMM
// form against its AVX2 form, bit for bit.
func FuzzZMMMatchesAVX2Bits(f *testing.F) {
	f.Add(uint8(1), uint16(1), float32(1), uint64(1))
	f.Add(uint8(3), uint16(96), float32(4), uint64(2))
	f.Add(uint8(17), uint16(193), float32(100), uint64(3))
	f.Add(uint8(2), uint16(47), float32(0.001), uint64(4))
	f.Fuzz(func(t *testing.T, rows uint8, n uint16, scale float32, seed uint64) {
		a, z := zmmPair(t)
		if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) {
			scale = 1
		}
		scale = min(float32(math.Abs(float64(scale))), 200)
		r := rand.New(rand.NewPCG(seed, 97))
		d := int(n % 1100)
		sameGRU(t, r, a, z, newGRUCase(r, int(rows%16), d%300, scale), fmt.Sprintf("rows=%d d=%d", rows%16, d%300))
		st := newAdamState(r, d, scale)
		sz := st.clone()
		st.run(a, adamDefault)
		sz.run(z, adamDefault)
		requireSameBits(t, "adam p", sz.p.all, st.p.all)
		requireSameBits(t, "adam m", sz.m.all, st.m.all)
		requireSameBits(t, "adam v", sz.v.all, st.v.all)
		sz.requireGuards(t, "adam")
		cols := 1 + int(n%64)
		samePolicy(t, a, z, newPolicyCase(r, int(rows%40), cols, cols+int(seed%3), max(scale, 1e-3)),
			fmt.Sprintf("policy rows=%d cols=%d", rows%40, cols))
		shift := int(seed % 3)
		sameVector(t, a, z, zmmVectorInputs(r, d, shift, scale), shift, fmt.Sprintf("n=%d", d))
	})
}

// TestZMMExpTanhEveryFloat runs exp and tanh on every 17th float32 bit
// pattern (-short: every 251st) in both forms: the ZMM form scales by 2^n
// with VSCALEFPS where the AVX2 form builds two exponent factors from
// integers, and they agree only if a single rounding of p·2^n is what both
// compute, at every n, subnormal results, overflow and NaN payloads
// included. With step 1 (all 2³² patterns, 17 s) it passed on Zen 4 when
// VSCALEFPS came in.
func TestZMMExpTanhEveryFloat(t *testing.T) {
	a, z := zmmPair(t)
	step := uint64(17) // odd: every residue of the low bits is visited
	if testing.Short() {
		step = 251
	}
	const block = 1 << 16
	src, wa, wz := make([]float32, block), make([]float32, block), make([]float32, block)
	checked := 0
	for start := uint64(0); start < 1<<32; start += block * step {
		for i := range src {
			src[i] = math.Float32frombits(uint32(start + uint64(i)*step))
		}
		for _, k := range []struct {
			name string
			a, z func(dst, src []float32)
		}{{"tanh", a.tanh, z.tanh}, {"exp", a.exp, z.exp}} {
			k.a(wa, src)
			k.z(wz, src)
			for i := range wa {
				if math.Float32bits(wz[i]) != math.Float32bits(wa[i]) {
					require.FailNowf(t, "bits differ", "%s(%#08x): ZMM form %#08x, AVX2 form %#08x",
						k.name, math.Float32bits(src[i]), math.Float32bits(wz[i]), math.Float32bits(wa[i]))
				}
			}
		}
		checked += block
	}
	t.Logf("%d inputs, step %d", checked, step)
	require.GreaterOrEqual(t, checked, (1<<32)/int(step)-block)
}
