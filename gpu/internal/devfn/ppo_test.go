//go:build cgo

package devfn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/stretchr/testify/require"
)

// TestPPOStepIsEnginekits: simdrl_ppo_step (ppo.cuh) is enginekit.PPOStep,
// the function the CPU engine weighs its steps with, on random steps and on
// the edges: ratios on and past both clip bounds, advantages of both signs
// and 0, values clipped on either side, with and without value clipping.
func TestPPOStepIsEnginekits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 3))
	type step struct{ logp, old, adv, v, oldV, ret, clip float64 }
	var cases []step
	for _, lr := range []float64{0, math.Log(0.8), math.Log(1.2), -0.5, 0.5} {
		for _, adv := range []float64{-1.5, 0, 2} {
			for _, dv := range []float64{-0.3, -0.2, 0, 0.2, 0.3} {
				cases = append(cases, step{-1 + lr, -1, adv, 0.4 + dv, 0.4, -0.5, 0.2})
			}
		}
	}
	for range 2000 {
		cases = append(cases, step{-3 * rnd.Float64(), -3 * rnd.Float64(), 4*rnd.Float64() - 2, 2*rnd.Float64() - 1, 2*rnd.Float64() - 1,
			2*rnd.Float64() - 1, []float64{0.01, 0.1, 0.2, 1}[rnd.IntN(4)]})
	}
	clipped := map[bool]int{}
	for _, c := range cases {
		for _, clipV := range []bool{false, true} {
			pg, dpg, vl, dv := PPOStep(c.logp, c.old, c.adv, c.v, c.oldV, c.ret, c.clip, clipV)
			wpg, wdpg, wvl, wdv := enginekit.PPOStep(c.logp, c.old, c.adv, c.v, c.oldV, c.ret, c.clip, clipV)
			for _, x := range [][2]float64{{wpg, pg}, {wdpg, dpg}, {wvl, vl}, {wdv, dv}} {
				require.InDelta(t, x[0], x[1], 1e-14*math.Max(1, math.Abs(x[0])), "%+v clip-vloss %v", c, clipV)
			}
			clipped[wdpg == 0 && c.adv != 0]++
		}
	}
	require.Positive(t, clipped[true], "some steps' ratio clipped")
	require.Positive(t, clipped[false], "some steps' ratio not clipped")
}

// TestPPOEpisodeIsCPUs: simdrl_ppo_episode writes the loss weights and sums
// cpu/ppo.go's weigh writes for one episode of a minibatch (its steps up to
// its end through enginekit.PPOStep, 0 after), the advantages normalised,
// at a stride of several episodes.
func TestPPOEpisodeIsCPUs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 4))
	const T, s, vc, ec, steps = 9, 3, 0.5, 0.03, 17.0
	for trial := range 40 {
		logpa, val, ent := make([]float32, T*s), make([]float32, T*s), make([]float32, T*s)
		for i := range logpa {
			logpa[i], val[i], ent[i] = -3*rnd.Float32(), 2*rnd.Float32()-0.5, rnd.Float32()
		}
		old, oldV, adv, ret := make([]float32, T), make([]float32, T), make([]float32, T), make([]float32, T)
		for t := range old {
			old[t] = logpa[t*s] + 0.3*rnd.Float32() - 0.15 // ratios around 1, some past the clip
			oldV[t], adv[t], ret[t] = val[t*s]+0.4*rnd.Float32()-0.2, 2*rnd.Float32()-1, 2*rnd.Float32()-0.5
		}
		end, clipV := rnd.IntN(T), trial%2 == 0
		mean, scale, clip := 0.1*rnd.Float64(), 0.5+rnd.Float64(), []float64{0.05, 0.2}[trial%4/2]
		got, dl, de, dv := PPOEpisode(T, s, logpa, val, ent, old, oldV, adv, ret, end, mean, scale, steps, clip, clipV, vc, ec)

		var want PPOSums
		wl, we, wv := make([]float32, T*s), make([]float32, T*s), make([]float32, T*s)
		for t := 0; t <= end; t++ {
			i := t * s
			lp, o := float64(logpa[i]), float64(old[t])
			a := (float64(adv[t]) - mean) * scale
			pg, dpg, vl, dvl := enginekit.PPOStep(lp, o, a, float64(val[i]), float64(oldV[t]), float64(ret[t]), clip, clipV)
			want.PG += pg
			want.Value += vl
			want.Entropy += float64(ent[i])
			want.KL += math.Expm1(lp-o) - (lp - o)
			if math.Abs(math.Expm1(lp-o)) > clip {
				want.Clipped++
			}
			wl[i], wv[i], we[i] = float32(dpg/steps), float32(vc*dvl/steps), float32(-ec/steps)
		}
		require.Equal(t, wl, dl, "trial %d: dlogp", trial)
		require.Equal(t, wv, dv, "trial %d: dval", trial)
		require.Equal(t, we, de, "trial %d: dent", trial)
		require.Equal(t, want.Clipped, got.Clipped, "trial %d", trial)
		for _, x := range [][2]float64{{want.PG, got.PG}, {want.Value, got.Value}, {want.Entropy, got.Entropy}, {want.KL, got.KL}} {
			require.InDelta(t, x[0], x[1], 1e-12, "trial %d", trial)
		}
	}
}
