package kernels

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// EnvRequireAsm names the variable that makes the tests insist on assembly:
// SIMDRL_REQUIRE_ASM=avx2 (or avx512, neon) fails unless that backend is in
// use, so a silent fallback to the generic twins can never pass as covered.
// The avx512 set is the avx2 set with AVX-512 GEMMs, so it satisfies avx2.
const EnvRequireAsm = "SIMDRL_REQUIRE_ASM"

// satisfies lists, per required backend, the backends that contain it.
var satisfies = map[string][]string{"avx2": {"avx2", "avx512"}, "avx512": {"avx512"}, "neon": {"neon"}}

func TestRequiredBackendIsInUse(t *testing.T) {
	want := os.Getenv(EnvRequireAsm)
	if want == "" {
		t.Logf("backend %s (set %s=avx2|avx512|neon to require one)", Backend(), EnvRequireAsm)
		require.Contains(t, []string{"generic", "avx2", "avx512", "neon"}, Backend())
		return
	}
	require.Containsf(t, satisfies[want], Backend(), "%s=%s but the %s kernels run", EnvRequireAsm, want, Backend())
	require.NotNil(t, accelerated)
	if want == "avx512" {
		// The AVX-512 GEMMs must be installed, not the avx2 set's.
		sets := asmSets()
		avx2 := sets[0]
		require.Equal(t, "avx2", avx2.name)
		require.NotEqual(t, funcAddr(avx2.sgemmNN), funcAddr(impl.sgemmNN), "sgemmNN runs the AVX2 GEMM")
		require.NotEqual(t, funcAddr(avx2.sgemmNT), funcAddr(impl.sgemmNT), "sgemmNT runs the AVX2 GEMM")
		require.NotEqual(t, funcAddr(avx2.sgemmTN), funcAddr(impl.sgemmTN), "sgemmTN runs the AVX2 GEMM")
		if requireAVX512Plan != nil {
			requireAVX512Plan(t) // and NT the kernel this CPU's rule picks
		}
	}
	// Every kernel of the set must be assembly: none may still be a generic
	// twin, except those listed in stillGeneric for this backend.
	for name, pair := range map[string][2]any{
		"sgemmNN": {impl.sgemmNN, generic.sgemmNN}, "sgemmNT": {impl.sgemmNT, generic.sgemmNT},
		"sgemmTN":    {impl.sgemmTN, generic.sgemmTN},
		"gruForward": {impl.gruForward, generic.gruForward}, "gruBack": {impl.gruBack, generic.gruBack},
		"policyFwd": {impl.policyFwd, generic.policyFwd}, "policyBack": {impl.policyBack, generic.policyBack},
		"adam": {impl.adam, generic.adam}, "sumSquares": {impl.sumSquares, generic.sumSquares},
		"tanh": {impl.tanh, generic.tanh}, "exp": {impl.exp, generic.exp}, "add": {impl.add, generic.add},
	} {
		same := funcAddr(pair[0]) == funcAddr(pair[1])
		if slices.Contains(stillGeneric[want], name) {
			require.Truef(t, same, "%s now has %s assembly: take it off stillGeneric", name, want)
			t.Logf("%s: %s runs its generic twin (no assembly yet)", want, name)
			continue
		}
		require.Falsef(t, same, "%s still runs its generic twin", name)
	}
}

// requireAVX512Plan, where the architecture has one (amd64), fails unless
// the kernels in use are those its dispatch rule picks for this CPU.
var requireAVX512Plan func(t *testing.T)

// stillGeneric lists, per backend, the kernels that have no assembly yet
// (a kernel added for one backend before the other). None now: avx2 and
// neon cover every slot.
var stillGeneric = map[string][]string{}

// TestCheckRequest: the backend in use is always a valid request; a name
// this machine does not offer is reported with what it does offer.
func TestCheckRequest(t *testing.T) {
	t.Setenv(EnvKernels, Backend())
	require.NoError(t, CheckRequest())
	t.Setenv(EnvKernels, "")
	require.NoError(t, CheckRequest())
	t.Setenv(EnvKernels, "no-such-backend")
	require.ErrorContains(t, CheckRequest(), "SIMDRL_KERNELS=no-such-backend is not available on this machine (it offers generic")
	// Every set this CPU supports can be picked by name.
	for _, s := range asmSets() {
		t.Setenv(EnvKernels, s.name)
		require.Equal(t, s.name, choose().name)
	}
	t.Setenv(EnvKernels, "generic")
	require.Equal(t, "generic", choose().name)
}

func TestForcedGeneric(t *testing.T) {
	if os.Getenv(EnvKernels) == "generic" {
		require.Equal(t, "generic", Backend())
	}
	require.Equal(t, "generic", generic.name)
}
