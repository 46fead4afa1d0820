package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// vectorCase runs one elementwise kernel pair (generic, accelerated) on n
// elements misaligned by shift, with NaN guards around the output.
func TestVectorKernels(t *testing.T) {
	acc := underTest(t)
	r := rand.New(rand.NewPCG(7, 7))
	sizes := append(append([]int{}, oddSizes...), largeSize)
	for _, n := range sizes {
		for shift := 0; shift < 3; shift++ {
			name := fmt.Sprintf("n=%d/shift=%d", n, shift)
			src := randSlice(r, n, shift, 12)
			if n > 3 {
				src[1], src[2], src[3] = 0, -95, 95 // zero and saturation
			}
			// Generic against float64.
			x := newGuarded(n, shift, nil)
			copy(x.Data, src)
			tanhGeneric(x.Data, x.Data)
			x.requireGuards(t, "tanh "+name)
			e := newGuarded(n, shift, nil)
			expGeneric(e.Data, src)
			e.requireGuards(t, "exp "+name)
			for i, v := range src {
				require.InDelta(t, math.Tanh(float64(v)), float64(x.Data[i]), 1e-7)
				w := math.Exp(float64(v))
				if math.IsInf(float64(float32(w)), 1) {
					require.True(t, math.IsInf(float64(e.Data[i]), 1), "exp(%v) overflows float32", v)
					continue
				}
				require.InDelta(t, w, float64(e.Data[i]), 1e-7*w+1e-30)
			}
			a := newGuarded(n, shift, r)
			want := make([]float32, n)
			copy(want, a.Data)
			for i := range want {
				want[i] += src[i]
			}
			addGeneric(a.Data, src)
			a.requireGuards(t, "add "+name)
			require.Equal(t, want, a.Data)
			if acc == nil {
				continue
			}
			// Accelerated against generic.
			x2 := newGuarded(n, shift, nil)
			copy(x2.Data, src)
			acc.tanh(x2.Data, x2.Data)
			x2.requireGuards(t, "tanh asm "+name)
			requireClose(t, "tanh "+name, x2.Data, x.Data, 4e-7, 1e-7)
			e2 := newGuarded(n, shift, nil)
			acc.exp(e2.Data, src)
			e2.requireGuards(t, "exp asm "+name)
			requireClose(t, "exp "+name, e2.Data, e.Data, 4e-7, 1e-37)
			a2 := newGuarded(n, shift, nil)
			copy(a2.Data, want)
			for i := range a2.Data {
				a2.Data[i] -= src[i]
			}
			a3 := a2.clone()
			acc.add(a2.Data, src)
			addGeneric(a3.Data, src)
			a2.requireGuards(t, "add asm "+name)
			require.Equal(t, a3.Data, a2.Data)
		}
	}
}

func TestVectorKernelsNaN(t *testing.T) {
	for _, set := range []*implementation{&generic, accelerated} {
		if set == nil {
			continue
		}
		x := []float32{1, float32(math.NaN()), -1}
		set.tanh(x, x)
		require.True(t, math.IsNaN(float64(x[1])), set.name)
		require.False(t, math.IsNaN(float64(x[0])) || math.IsNaN(float64(x[2])), set.name)
		e := make([]float32, 3)
		set.exp(e, []float32{0, float32(math.NaN()), -200})
		require.Equal(t, float32(1), e[0], set.name)
		require.True(t, math.IsNaN(float64(e[1])), set.name)
		require.Equal(t, float32(0), e[2], set.name)
	}
}

func TestVectorKernelsAllocateNothing(t *testing.T) {
	x, y := make([]float32, 100), make([]float32, 100)
	require.Zero(t, testing.AllocsPerRun(10, func() { Tanh(x); Exp(y, x); Add(x, y) }))
}

func FuzzVectorKernels(f *testing.F) {
	f.Add([]byte{1, 2, 3, 250, 7, 8, 9, 10, 11}, uint8(1))
	f.Fuzz(func(t *testing.T, raw []byte, shift uint8) {
		acc := accelerated
		if acc == nil {
			t.Skip("no accelerated kernels in this build")
		}
		src := make([]float32, len(raw)/4+int(shift%3))[shift%3:]
		for i := range src {
			src[i] = math.Float32frombits(uint32(raw[4*i]) | uint32(raw[4*i+1])<<8 | uint32(raw[4*i+2])<<16 | uint32(raw[4*i+3])<<24)
		}
		a, b := append([]float32(nil), src...), append([]float32(nil), src...)
		acc.tanh(a, src)
		tanhGeneric(b, src)
		requireClose(t, "tanh", a, b, 4e-7, 1e-7)
		acc.exp(a, src)
		expGeneric(b, src)
		requireClose(t, "exp", a, b, 4e-7, 1e-37)
	})
}
