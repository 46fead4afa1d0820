package cpu

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestBaselineEstimatorsAreTodays: enginekit.SumLoss and StepLoss through the seam
// write the same weights and terms, bit for bit, as the loss functions
// they replaced (todaySumLoss, todayStepLoss: copies of them as they were
// at d617f1f), on a real rollout of episodes that end early.
func TestBaselineEstimatorsAreTodays(t *testing.T) {
	cfg := shortConfig()
	cfg.Task, cfg.TaskSpec, cfg.Steps = "calc", "levels=a+b, a*b, a*b+c*d", 9
	cfg.Batch, cfg.Chunk = 64, 64
	e, err := newRun(cfg)
	require.NoError(t, err)
	defer e.Close()
	w := e.pool.workers[0]
	const n = 64
	w.ws.Reset(n)
	for b := 0; b < n; b++ {
		w.tasks[b] = e.task.Draw(e.key, 3, uint32(b), rng.PurposeTask, b%len(e.task.Levels()), task.Training)
		w.setContext(b, &w.tasks[b])
	}
	w.rollout(e.model, gru.Sample, gru.Stream{Key: e.key, Round: 3}, false)
	w.steps.returns(n, cfg.Steps, w.rewards[:n])
	weights := func() [3][]float32 {
		return [3][]float32{append([]float32(nil), w.ws.DLogp[:n*cfg.Steps]...),
			append([]float32(nil), w.ws.DValue[:n*cfg.Steps]...), append([]float32(nil), w.ws.DEnt[:n*cfg.Steps]...)}
	}
	bits := func(l trainer.LossTerms) [4]uint64 {
		return [4]uint64{math.Float64bits(l.PG), math.Float64bits(l.Value), math.Float64bits(l.Entropy), math.Float64bits(l.Total)}
	}
	in := chunkEpisodes(w.ws, &w.steps, w.rewards[:n], 1)
	scribble := func() { // so that a weight the estimator leaves unwritten shows
		for _, d := range [][]float32{w.ws.DLogp, w.ws.DValue, w.ws.DEnt} {
			for i := range d[:n*cfg.Steps] {
				d[i] = 7
			}
		}
	}

	want := todaySumLoss(w.ws, w.rewards[:n], 100, 0.5, 0.05)
	wantW := weights()
	scribble()
	got := termsOf(enginekit.SumLoss(in, enginekit.LossScale{Batch: 100, ValueCoef: 0.5, EntropyCoef: 0.05}, weightsOf(w.ws)))
	require.Equal(t, bits(want), bits(got), "sum")
	require.Equal(t, wantW, weights(), "sum")
	for _, mask := range []bool{false, true} {
		want := todayStepLoss(w.ws, &w.steps, 100, 0.5, 0.05, mask)
		wantW := weights()
		scribble()
		got := termsOf(enginekit.StepLoss(in, enginekit.LossScale{Batch: 100, ValueCoef: 0.5, EntropyCoef: 0.05, Mask: mask}, weightsOf(w.ws)))
		require.Equal(t, bits(want), bits(got), "step mask=%v", mask)
		require.Equal(t, wantW, weights(), "step mask=%v", mask)
		require.NotEqual(t, make([]float32, n*cfg.Steps), wantW[0], "step mask=%v: some weight is not 0", mask)
	}
}

// todaySumLoss is the sum baseline as it was before the estimator seam.
func todaySumLoss(w *gru.Workspace, rewards []float32, batch int, valueCoef, entropyCoef float64) trainer.LossTerms {
	n, T := w.Rows(), w.T
	B := float64(batch)
	var out trainer.LossTerms
	for b := 0; b < n; b++ {
		var vsum, lpsum, esum float64
		for t := 0; t < T; t++ {
			vsum += float64(w.Value(b, t))
			lpsum += float64(w.Logp(b, t))
			esum += float64(w.Entropy(b, t))
		}
		R := float64(rewards[b])
		adv := R - vsum
		out.PG -= lpsum * adv / B
		out.Value += (vsum - R) * (vsum - R) / B
		out.Entropy -= esum / (B * float64(T))
		dlogp := float32(-adv / B)
		dvalue := float32(valueCoef * 2 * (vsum - R) / B)
		dent := float32(-entropyCoef / (B * float64(T)))
		for t := 0; t < T; t++ {
			w.DLogp[t*n+b] = dlogp
			w.DValue[t*n+b] = dvalue
			w.DEnt[t*n+b] = dent
		}
	}
	out.Total = out.PG + valueCoef*out.Value + entropyCoef*out.Entropy
	return out
}

// todayStepLoss is the step baseline as it was before the estimator seam.
func todayStepLoss(w *gru.Workspace, s *stepBuffers, batch int, valueCoef, entropyCoef float64, mask bool) trainer.LossTerms {
	n, T := w.Rows(), w.T
	B := float64(batch)
	var out trainer.LossTerms
	for b := 0; b < n; b++ {
		last := T - 1
		if mask {
			last = int(s.end[b])
		}
		for t := 0; t < T; t++ {
			i := t*n + b
			if t > last {
				w.DLogp[i], w.DValue[i], w.DEnt[i] = 0, 0, 0
				continue
			}
			R := float64(s.togo[i])
			v := float64(w.Value(b, t))
			adv := R - v
			out.PG -= float64(w.Logp(b, t)) * adv / B
			out.Value += (v - R) * (v - R) / B
			out.Entropy -= float64(w.Entropy(b, t)) / (B * float64(T))
			w.DLogp[i] = float32(-adv / B)
			w.DValue[i] = float32(valueCoef * 2 * (v - R) / B)
			w.DEnt[i] = float32(-entropyCoef / (B * float64(T)))
		}
	}
	out.Total = out.PG + valueCoef*out.Value + entropyCoef*out.Entropy
	return out
}
