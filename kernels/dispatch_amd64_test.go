//go:build !purego

package kernels

import (
	"testing"

	"github.com/klauspost/cpuid/v2"
	"github.com/stretchr/testify/require"
)

func init() { requireAVX512Plan = requireLivePlan }

// requireLivePlan: SIMDRL_REQUIRE_ASM=avx512 also insists that NT runs the
// kernel the dispatch rule picks for this CPU (the ZMM tile where 512-bit
// FMAs are full rate), so that a rule that silently stopped matching the CPU
// cannot pass.
func requireLivePlan(t *testing.T) {
	require.Equal(t, funcAddr(wantNT(planAVX512(liveCPU()))), funcAddr(impl.sgemmNT), "sgemmNT is not the kernel the dispatch rule picks for this CPU")
	// And the elementwise kernels their form for this CPU: ZMM where the plan
	// says so (all but sumSquares and add), else AVX2.
	for _, k := range elementwiseKernels(asmSets()[0], &impl) {
		w := k.avx2
		if planAVX512(liveCPU()).elemZMM && k.zmm != nil {
			w = k.zmm
		}
		require.Equalf(t, funcAddr(w), funcAddr(k.got), "%s is not the form the dispatch rule picks for this CPU", k.name)
	}
}

// wantNT is the NT kernel a plan must install: written out here, apart from
// useAVX512GEMM, so that the two are checked against each other.
func wantNT(p avx512Plan) any {
	if !p.ntZMM {
		return sgemmNTAVX512
	}
	if p.headsZMM {
		return sgemmNTAVX512Z
	}
	return sgemmNTAVX512Zen4
}

// TestDispatchRule checks the rule on synthetic CPUs (pure logic: no
// kernel runs, so it holds on any machine) and then the choice on this one.
func TestDispatchRule(t *testing.T) {
	zen := func(family int, avx512 bool) cpuFacts {
		return cpuFacts{vendor: cpuid.AMD, family: family, model: 2, avx2FMA: true, avx512: avx512}
	}
	intel := func(model int, avx512 bool) cpuFacts {
		return cpuFacts{vendor: cpuid.Intel, family: 6, model: model, avx2FMA: true, avx512: avx512}
	}
	for _, tc := range []struct {
		what     string
		c        cpuFacts
		sets     []string
		fullRate bool
		zen4     bool // the ZMM forms measured to pay double-pumped (but the heads')
	}{
		{"no AVX2", cpuFacts{vendor: cpuid.Intel, family: 6, model: 0x2A}, nil, false, false},
		{"Zen 3", zen(25, false), []string{"avx2"}, false, false},
		{"Zen 4 (double-pumped)", zen(25, true), []string{"avx2", "avx512"}, false, true},
		{"Zen 5", zen(26, true), []string{"avx2", "avx512"}, true, false},
		{"Zen 5 without ZMM state", zen(26, false), []string{"avx2"}, false, false},
		{"a later AMD family", zen(27, true), []string{"avx2", "avx512"}, true, false},
		{"Hygon with AVX-512", cpuFacts{vendor: cpuid.Hygon, family: 24, avx2FMA: true, avx512: true}, []string{"avx2", "avx512"}, false, false},
		{"Skylake-SP / Cascade Lake", intel(0x55, true), []string{"avx2", "avx512"}, true, false},
		{"Ice Lake-SP", intel(0x6A, true), []string{"avx2", "avx512"}, true, false},
		{"Sapphire Rapids", intel(0x8F, true), []string{"avx2", "avx512"}, true, false},
		{"Emerald Rapids", intel(0xCF, true), []string{"avx2", "avx512"}, true, false},
		{"Granite Rapids", intel(0xAD, true), []string{"avx2", "avx512"}, true, false},
		{"Ice Lake client", intel(0x7E, true), []string{"avx2", "avx512"}, false, false},
		{"Tiger Lake", intel(0x8C, true), []string{"avx2", "avx512"}, false, false},
		{"Rocket Lake", intel(0xA7, true), []string{"avx2", "avx512"}, false, false},
		{"Alder Lake (no AVX-512)", intel(0x97, false), []string{"avx2"}, false, false},
		{"Intel, not family 6", cpuFacts{vendor: cpuid.Intel, family: 19, model: 0x01, avx2FMA: true, avx512: true}, []string{"avx2", "avx512"}, false, false},
		{"unknown vendor", cpuFacts{vendor: cpuid.VendorUnknown, family: 26, avx2FMA: true, avx512: true}, []string{"avx2", "avx512"}, false, false},
	} {
		require.Equal(t, tc.fullRate, zmmFullRate(tc.c), tc.what)
		require.Equal(t, tc.zen4, zen4(tc.c), tc.what)
		plan := avx512Plan{ntZMM: tc.fullRate || tc.zen4, headsZMM: tc.fullRate, elemZMM: tc.fullRate || tc.zen4}
		require.Equal(t, plan, planAVX512(tc.c), tc.what)
		sets := asmSetsFor(tc.c)
		var names []string
		for _, s := range sets {
			names = append(names, s.name)
		}
		require.Equal(t, tc.sets, names, tc.what)
		if len(sets) < 2 {
			continue
		}
		avx2, avx512 := sets[0], sets[1]
		// NN and TN: the ZMM tile on every AVX-512 CPU; NT: the ZMM tile at
		// full rate and on Zen 4, with the heads in ZMM only at full rate;
		// elsewhere the avx2 set's tile (and the heads kernel in YMM).
		require.Equal(t, funcAddr(sgemmNNAVX512), funcAddr(avx512.sgemmNN), tc.what)
		require.Equal(t, funcAddr(sgemmTNAVX512), funcAddr(avx512.sgemmTN), tc.what)
		nt := any(sgemmNTAVX512)
		switch {
		case tc.fullRate:
			nt = sgemmNTAVX512Z
		case tc.zen4:
			nt = sgemmNTAVX512Zen4
		}
		require.Equal(t, funcAddr(nt), funcAddr(avx512.sgemmNT), tc.what)
		require.Equal(t, funcAddr(nt), funcAddr(wantNT(plan)), tc.what)
		require.Equal(t, funcAddr(sgemmNTAVX2), funcAddr(avx2.sgemmNT), tc.what)
		// The elementwise kernels: their ZMM forms at full rate and on Zen 4,
		// else the avx2 set's; sumSquares and add are the avx2 set's on every
		// x86 backend.
		for _, k := range elementwiseKernels(avx2, avx512) {
			want := k.avx2
			if (tc.fullRate || tc.zen4) && k.zmm != nil {
				want = k.zmm
			}
			require.Equalf(t, funcAddr(want), funcAddr(k.got), "%s: %s", tc.what, k.name)
			require.Equalf(t, funcAddr(k.avx2), funcAddr(k.avx2Set), "%s: avx2 set's %s", tc.what, k.name)
		}
	}

	// This CPU: the live facts give the sets asmSets lists, and a known
	// family gets its known answer.
	live := liveCPU()
	t.Logf("this CPU: %s family %d model %#x, AVX2+FMA %v, AVX-512 %v: 512-bit FMA full rate %v",
		live.vendor, live.family, live.model, live.avx2FMA, live.avx512, zmmFullRate(live))
	require.Equal(t, cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3), live.avx2FMA)
	require.Equal(t, cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512VL), live.avx512)
	require.Len(t, asmSets(), len(asmSetsFor(live)))
	if live.avx512 && live.vendor == cpuid.AMD {
		switch live.family {
		case 25:
			require.False(t, zmmFullRate(live), "Zen 4 double-pumps 512-bit FMAs")
			require.True(t, zen4(live), "family 25 with AVX-512 is Zen 4")
		case 26:
			require.True(t, zmmFullRate(live), "Zen 5 has full-width 512-bit FMAs")
		}
	}
	if sets := asmSets(); len(sets) == 2 {
		require.Equal(t, funcAddr(wantNT(planAVX512(live))), funcAddr(sets[1].sgemmNT))
		for _, k := range elementwiseKernels(sets[0], sets[1]) {
			want := k.avx2
			if planAVX512(live).elemZMM && k.zmm != nil {
				want = k.zmm
			}
			require.Equalf(t, funcAddr(want), funcAddr(k.got), "this CPU: %s", k.name)
		}
	}
}

// elementwiseKernel is one elementwise slot: its AVX2 form, its ZMM form
// (nil where it has none), what the avx2 set holds and what the avx512 set
// holds.
type elementwiseKernel struct {
	name                    string
	avx2, zmm, avx2Set, got any
}

func elementwiseKernels(avx2, avx512 *implementation) []elementwiseKernel {
	return []elementwiseKernel{
		{"gruForward", gruForwardAVX2, gruForwardAVX512, avx2.gruForward, avx512.gruForward},
		{"gruBack", gruBackwardAVX2, gruBackwardAVX512, avx2.gruBack, avx512.gruBack},
		{"adam", adamAVX2, adamAVX512, avx2.adam, avx512.adam},
		{"tanh", tanhAVX2, tanhAVX512, avx2.tanh, avx512.tanh},
		{"exp", expAVX2, expAVX512, avx2.exp, avx512.exp},
		{"policyFwd", policyForwardAVX2, policyForwardAVX512, avx2.policyFwd, avx512.policyFwd},
		{"policyBack", policyBackwardAVX2, policyBackwardAVX512, avx2.policyBack, avx512.policyBack},
		{"sumSquares", sumSquaresAVX2, nil, avx2.sumSquares, avx512.sumSquares},
		{"add", addAVX2, nil, avx2.add, avx512.add},
	}
}
