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
// the table: packed as the table lists them they pass (allocating nothing);
// a swap, a wrong kind, a missing or an extra parameter, or a kernel the
// table lacks is refused, naming the parameter.
func TestArgsFollow(t *testing.T) {
	var a args
	// pack packs k's parameters as the table lists them, but for the change
	// edit makes to (names, kinds).
	pack := func(k *abi.Kernel, edit func(names []string, kinds []byte) ([]string, []byte)) *args {
		names, kinds := make([]string, len(k.Params)), make([]byte, len(k.Params))
		for i, p := range k.Params {
			kind, err := abi.Kind(p.C)
			require.NoError(t, err)
			names[i], kinds[i] = p.Name, kind
		}
		if edit != nil {
			names, kinds = edit(names, kinds)
		}
		a.reset()
		for i := range names {
			a.add(names[i], 0, kinds[i])
		}
		return &a
	}
	for _, k := range abi.Kernels {
		require.NoError(t, pack(&k, nil).follows(k.Entries[0]))
		for _, e := range k.Entries {
			require.Zero(t, testing.AllocsPerRun(10, func() { _ = a.follows(e) }))
		}
		p0, p1 := k.Params[0], k.Params[1]
		err := pack(&k, func(n []string, kd []byte) ([]string, []byte) {
			n[0], n[1], kd[0], kd[1] = n[1], n[0], kd[1], kd[0]
			return n, kd
		}).follows(k.Entries[0])
		require.ErrorContains(t, err, "parameter 0 is "+p0.Decl(), k.Macro)
		err = pack(&k, func(n []string, kd []byte) ([]string, []byte) {
			kd[1] = map[byte]byte{'p': 'i', 'i': 'f', 'u': 'i', 'f': 'i', 'd': 'p'}[kd[1]]
			return n, kd
		}).follows(k.Entries[0])
		require.ErrorContains(t, err, "parameter 1 is "+p1.Decl(), k.Macro)
		last := len(k.Params) - 1
		err = pack(&k, func(n []string, kd []byte) ([]string, []byte) { return n[:last], kd[:last] }).follows(k.Entries[0])
		require.ErrorContains(t, err, k.Params[last].Decl()+") not packed", k.Macro)
		err = pack(&k, func(n []string, kd []byte) ([]string, []byte) { return append(n, "x"), append(kd, 'i') }).follows(k.Entries[0])
		require.ErrorContains(t, err, "extra: x", k.Macro)
	}
	require.ErrorContains(t, a.reset().i32("n", 1).follows("simdrl_nope"), "not in the ABI table")
}

// TestSmemPlan: the shared memory sized from the table is what the kernels'
// hand-written carvings took before the table (the same regions, in order),
// the rollout's instance records since grown from 48 to 74 words (sTask:
// 104 bytes more an episode, each region rounded up to 16 bytes) and its
// statistics from 5 to 6 columns (sStat: the flat groups' column).
func TestSmemPlan(t *testing.T) {
	round16 := func(n int) int { return (n + 15) / 16 * 16 }
	sStatGrowth := func(E int) int { return round16(8*E*nStats) - round16(8*E*5) }
	for _, c := range []struct {
		E, d, V       int
		smemW         bool
		rollout, back int
	}{
		{16, 96, 18, false, 29328 + 16*104, 40448},
		{16, 96, 18, true, 139920 + 16*104, 151040},
		{32, 96, 18, false, 50128 + 32*104, 73600},
		{32, 96, 18, true, 160720 + 32*104, 184192},
		{1, 37, 18, false, 4256 + 112, 3760},
		{1, 37, 18, true, 20688 + 112, 20192},
		{8, 64, 23, false, 16000 + 8*104, 17920},
		{8, 64, 23, true, 65152 + 8*104, 67072},
		{2, 100, 18, false, 11568 + 208, 11920},
		{2, 100, 18, true, 131568 + 208, 131920},
	} {
		require.Equal(t, c.rollout+sStatGrowth(c.E), rolloutSmem(c.E, c.d, c.V, 0, c.smemW), c)
		require.Equal(t, c.back, backwardSmem(c.E, c.d, c.V, 0, c.smemW), c)
	}
	for _, k := range abi.Kernels {
		if len(k.Smem) > 0 {
			require.NotPanics(t, func() { kernelSmem(k.Entries[0], 4, 37, 18, 9, true) }, "plan.go knows every factor and condition of %s", k.Macro)
		}
	}
}
