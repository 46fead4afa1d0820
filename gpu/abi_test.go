package gpu

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/gpu/internal/abi"
)

// TestPTXFollowsABI: every kernel's committed PTX declares the parameter
// widths of the ABI table's C types, in order (a stale PTX, or a kernel not
// built from args.cuh, fails here without nvcc).
func TestPTXFollowsABI(t *testing.T) {
	for _, k := range abi.Kernels {
		_, info, err := loadPTX(k.Module)
		require.NoError(t, err)
		want := make([]byte, len(k.Params))
		for i, p := range k.Params {
			kind, err := abi.Kind(p.C)
			require.NoError(t, err)
			want[i] = byte('0' + abi.Width(kind))
		}
		for _, e := range k.Entries {
			require.Equalf(t, string(want), info.Params[e], "%s.ptx's %s and gpu/internal/abi's table disagree on the parameter widths", k.Module, e)
		}
	}
}

// TestArgsFollow: a launch's arguments are checked by name and kind against
// the table: a swap, a missing or an extra parameter, or a kernel the table
// lacks is refused, naming the parameter.
func TestArgsFollow(t *testing.T) {
	var a args
	pack := func() *args {
		return a.reset().ptr("g", 1).i32("n", 2).ptr("part", 3)
	}
	require.NoError(t, pack().follows("simdrl_sumsq_partial"))
	require.Zero(t, testing.AllocsPerRun(10, func() { _ = pack().follows("simdrl_sumsq_partial") }))
	require.ErrorContains(t, a.reset().i32("n", 2).ptr("g", 1).ptr("part", 3).follows("simdrl_sumsq_partial"), "parameter 0 is const float *__restrict__ g")
	require.ErrorContains(t, a.reset().ptr("g", 1).f32("n", 2).ptr("part", 3).follows("simdrl_sumsq_partial"), "parameter 1 is int n (kind i)")
	require.ErrorContains(t, a.reset().ptr("g", 1).i32("n", 2).follows("simdrl_sumsq_partial"), "parameter 2 (double *part) not packed")
	require.ErrorContains(t, pack().i32("x", 4).follows("simdrl_sumsq_partial"), "extra: x")
	require.ErrorContains(t, pack().follows("simdrl_nope"), "not in the ABI table")
}

// TestSmemPlan: the shared memory sized from the table is what the kernels'
// hand-written carvings took before the table (the same regions, in order).
func TestSmemPlan(t *testing.T) {
	for _, c := range []struct {
		E, d, V       int
		smemW         bool
		rollout, back int
	}{
		{16, 96, 18, false, 29328, 40448},
		{16, 96, 18, true, 139920, 151040},
		{32, 96, 18, false, 50128, 73600},
		{32, 96, 18, true, 160720, 184192},
		{1, 37, 18, false, 4256, 3760},
		{1, 37, 18, true, 20688, 20192},
		{8, 64, 23, false, 16000, 17920},
		{8, 64, 23, true, 65152, 67072},
		{2, 100, 18, false, 11568, 11920},
		{2, 100, 18, true, 131568, 131920},
	} {
		require.Equal(t, c.rollout, rolloutSmem(c.E, c.d, c.V, c.smemW), c)
		require.Equal(t, c.back, backwardSmem(c.E, c.d, c.V, c.smemW), c)
	}
	for _, k := range abi.Kernels {
		if len(k.Smem) > 0 {
			require.NotPanics(t, func() { kernelSmem(k.Entries[0], 4, 37, 18, true) }, "plan.go knows every factor and condition of %s", k.Macro)
		}
	}
}
