//go:build !purego

package kernels

import (
	"math/rand/v2"
	"testing"

	"github.com/klauspost/cpuid/v2"
	"github.com/stretchr/testify/require"
)

// gemmForcedSets: on AVX-512 CPUs, a set whose NN, NT and TN always run the
// ZMM tile, so that its narrow and masked kernels (n mod 16 in 1..8, which
// dispatch leaves to the AVX2 tile, and NT's 19 columns, which run the heads
// kernel) are tested too, and NT's ZMM path is tested on CPUs where dispatch
// does not pick it; and the avx512 sets dispatch picks on the other classes
// of CPU (see planAVX512).
func gemmForcedSets() []*implementation {
	if !cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512VL) {
		return nil
	}
	s := generic
	s.name = "avx512-tile-only"
	s.sgemmNN = func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		gemmRun(&gemmTileAVX512, gemmNN, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
	s.sgemmTN = func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		gemmRun(&gemmTileAVX512, gemmTN, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
	s.tnBlock = func(n, k int) int { return gemmKCStep(k, gemmTileAVX512.kc) }
	s.sgemmNT = func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		gemmRun(&gemmTileAVX512NT, gemmNT, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
	// The avx512 sets of the CPU classes other than this one's (full rate,
	// Zen 4, and the unmeasured rest: see planAVX512): each runs on any
	// AVX-512 CPU, and dispatch picks each somewhere.
	sets := []*implementation{&s}
	for _, o := range []struct {
		name string
		c    cpuFacts
	}{
		{"avx512-full-rate", cpuFacts{vendor: cpuid.AMD, family: 26}},
		{"avx512-zen4", cpuFacts{vendor: cpuid.AMD, family: 25}},
		{"avx512-unmeasured", cpuFacts{vendor: cpuid.Intel, family: 6, model: 0x8C}}, // Tiger Lake
	} {
		o.c.avx2FMA, o.c.avx512 = true, true
		if planAVX512(o.c) == planAVX512(liveCPU()) {
			continue // the avx512 set itself, tested as such
		}
		set := *asmSetsFor(o.c)[1]
		set.name = o.name
		sets = append(sets, &set)
	}
	return sets
}

// TestAVX512Dispatch: where the CPU has AVX-512 the avx512 set is chosen
// (unless forced generic), and it differs from the avx2 set in the GEMMs.
func TestAVX512Dispatch(t *testing.T) {
	sets := asmSets()
	if !cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512VL) {
		for _, s := range sets {
			require.NotEqual(t, "avx512", s.name)
		}
		t.Skip("no AVX512F+VL on this CPU")
	}
	require.Len(t, sets, 2)
	avx2, avx512 := sets[0], sets[1]
	require.Equal(t, "avx2", avx2.name)
	require.Equal(t, "avx512", avx512.name)
	require.Equal(t, "avx512", accelerated.name)
	require.Equal(t, funcAddr(sgemmNNAVX512), funcAddr(avx512.sgemmNN))
	// NT: as the plan for this CPU says (TestDispatchRule).
	require.Equal(t, funcAddr(wantNT(planAVX512(liveCPU()))), funcAddr(avx512.sgemmNT))
	require.Equal(t, funcAddr(sgemmTNAVX512), funcAddr(avx512.sgemmTN))
	// Adam: its ZMM form where the plan says so (TestDispatchRule checks
	// every elementwise kernel), else the avx2 set's.
	wantAdam := funcAddr(avx2.adam)
	if planAVX512(liveCPU()).elemZMM {
		wantAdam = funcAddr(adamAVX512)
	}
	require.Equal(t, wantAdam, funcAddr(avx512.adam))
	// The 19 heads pad less in 24-column AVX2 panels; 96 and 288 fill ZMM ones.
	require.False(t, gemmZWins(19))
	require.True(t, gemmZWins(96))
	require.True(t, gemmZWins(288))
}

// TestSgemmZTileEveryKernel runs each ZMM kernel (rows 1..8, 1..3 vectors,
// masked or not) against the generic twins: every m up to 17 with A in place
// (NN, NT, TN) and packed (TN with 256-byte rows), every kind of last panel.
func TestSgemmZTileEveryKernel(t *testing.T) {
	forced := gemmForcedSets()
	if len(forced) == 0 {
		t.Skip("no AVX512F+VL on this CPU")
	}
	r := rand.New(rand.NewPCG(13, 14))
	i := 0
	for _, form := range []int{0, 1, 2} { // NN, NT, TN
		// NT: k below, at and past one 16×16 transpose of its packing.
		ks := []int{1, 6, 9}
		if form == 1 {
			ks = []int{1, 9, 16, 33}
		}
		for m := 1; m <= 17; m++ {
			for _, n := range []int{5, 16, 20, 37, 48, 53, 96} {
				for _, k := range ks {
					i++
					g := gemmCase{m: m, n: n, k: k, padA: i % 3, padB: (i / 3) % 2, padC: i % 5, shift: i % 4,
						alpha: gemmAlphas[i%2], beta: gemmBetas[(i/2)%3]}
					checkGemmCase(t, r, form, forced[0], g)
					if form == 2 {
						// Aᵀ's rows 256 bytes apart: packed, not read in place.
						g.padA = 64 - m
						checkGemmCase(t, r, form, forced[0], g)
					}
				}
			}
		}
	}
}

// TestSgemmHeadsEveryKernel runs the 19-column NT kernels (rows 1..5, k
// chunks of 16 and masked tails, several k blocks) against the generic twins.
func TestSgemmHeadsEveryKernel(t *testing.T) {
	sets := asmSets()
	if len(sets) < 2 {
		t.Skip("no AVX512F+VL on this CPU")
	}
	r := rand.New(rand.NewPCG(15, 16))
	i := 0
	for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 64, 97} {
		for _, k := range []int{1, 7, 8, 15, 16, 17, 31, 33, 96, 257, 300} {
			i++
			g := gemmCase{m: m, n: 19, k: k, padA: i % 3, padB: (i / 3) % 3, padC: i % 4, shift: i % 4,
				alpha: gemmAlphas[i%2], beta: gemmBetas[(i/2)%3]}
			checkGemmCase(t, r, 1, sets[1], g)
		}
	}
}
