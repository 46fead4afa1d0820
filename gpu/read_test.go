//go:build cgo

package gpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// readLevels are calc levels of 2, 3 and 4 digits: a batch that mixes them
// reads contexts of three lengths, so that most rows of a tile wait (copy
// their h) for some of the reading steps.
const readLevels = "a*b, a*b+c, a*b+c*d"

// TestGPUReadingGradientsAsCPU: one sampled training rollout of a reading
// model (-context read) on the GPU, levels of 2, 3 and 4 digits in one
// batch (the planner's tiles, and every EPT; 1x1 tiles read one row each,
// so that steps where the whole tile waits are skipped), and gru's
// Workspace teacher-forced on the same contexts, actions and (observing)
// inputs, with the GPU's loss weights: logp, entropy and value per step and
// the gradient of every tensor within golden.Tolerance, open-loop and
// observing.
func TestGPUReadingGradientsAsCPU(t *testing.T) {
	d := openGPU(t)
	for _, c := range []struct {
		name, levels string
		pc           float64
	}{{"open-loop", readLevels, -1}, {"observing", obsLevels, 0.3}} {
		cfg := calcConfig(t, c.levels, c.pc)
		cfg.Hidden, cfg.Batch, cfg.Seed, cfg.Context = 37, 48, 11, trainer.ContextRead
		tk, err := cfg.OpenTask()
		require.NoError(t, err)
		for _, tile := range []string{"", "1x1", "2x2:l1", "4x2", "8x2"} {
			l := observingLayout(t, cfg.Hidden, tk)
			l.Read = true
			params := make([]float32, l.Size)
			l.Init(params, cfg.Seed)
			e := observingEngine(t, d, cfg, tk, l, params, tile)
			require.Equal(t, task.LongestContext(tk), e.R, "the task's longest context")
			B, T := cfg.Batch, cfg.Steps
			var run observedRun
			logpa, ent, val, dlogp, dent, dval := make([]float32, T*B), make([]float32, T*B), make([]float32, T*B),
				make([]float32, T*B), make([]float32, T*B), make([]float32, T*B)
			grad := make([]float32, l.Size)
			var inputs []int32
			require.NoError(t, d.do(func() error {
				level := func(b int) int { return b % len(tk.Levels()) }
				if err := e.drawOnHost(B, 5, rng.PurposeTask, level, task.Training); err != nil {
					return err
				}
				var err error
				if run, err = e.observedRollout(rolloutSpec{n: B, mode: modeSample, train: true, level: -1, purpose: rng.PurposeTask, round: 5,
					givenTasks: true, entropy: cfg.EntropyCoef}); err != nil {
					return err
				}
				if err = e.gradients(); err != nil {
					return err
				}
				if err = e.finish(run.nb, true, cfg.EntropyCoef); err != nil {
					return err
				}
				for _, x := range []struct {
					dst []float32
					p   devPtr
				}{{logpa, e.logpa}, {ent, e.ent}, {val, e.val}, {dlogp, e.dlogp}, {dent, e.dent}, {dval, e.dval}, {grad, e.grad}} {
					if err = download(x.dst, x.p); err != nil {
						return err
					}
				}
				inputs = make([]int32, (e.last.reading+T+1)*B)
				return download(inputs, e.inputs)
			}))
			R := e.last.reading // the longest context of the batch, which draws every level: the layout's most
			require.Equal(t, e.R, R)

			dv := gru.NewDerived(l)
			dv.Compute(l, params)
			w, err := gru.NewWorkspace(l, B, T)
			require.NoError(t, err)
			w.Reset(B)
			var ctx [gru.MaxContext]int32
			lengths := map[int]bool{}
			for b := 0; b < B; b++ {
				in := tk.Draw(e.key, 5, uint32(b), rng.PurposeTask, b%len(tk.Levels()), task.Training)
				k := in.WriteContext(ctx[:], task.CTX)
				lengths[k] = true
				w.SetContext(b, int(in.Level), ctx[:k])
				for s := 0; s < T; s++ {
					w.SetAction(b, s, run.tokens[(s+1)*B+b])
				}
				// The reading steps' inputs: CTX while the row waits, then its digits.
				require.LessOrEqual(t, k-1, R)
				for r := 0; r < R; r++ {
					tok, o := int32(task.CTX), int32(0)
					if j := r - (R - (k - 1)); j >= 0 {
						tok = ctx[j]
					}
					if l.Observations > 0 {
						o = inputs[R*B+b] % int32(l.Observations)
					}
					require.Equal(t, l.Input(tok, o), inputs[r*B+b], "tile %q row %d reading step %d input", tile, b, r)
				}
			}
			if c.levels == readLevels {
				require.Len(t, lengths, 3, "contexts of three lengths")
			}
			w.Start(params)
			for s := 0; s < T; s++ {
				copy(w.Inputs(s), inputs[(R+s)*B:(R+s+1)*B])
				w.Step(params, dv, s, gru.Teacher, gru.Stream{})
			}
			cl, ce, cv := make([]float32, T*B), make([]float32, T*B), make([]float32, T*B)
			for b := 0; b < B; b++ {
				for s := 0; s < T; s++ {
					cl[s*B+b], ce[s*B+b], cv[s*B+b] = w.Logp(b, s), w.Entropy(b, s), w.Value(b, s)
				}
			}
			for name, p := range map[string][2][]float32{"logp": {logpa, cl}, "entropy": {ent, ce}, "value": {val, cv}} {
				re := golden.RelErr(p[0], f64s(p[1]))
				t.Logf("%s tile %q %-8s rel err %.2e", c.name, tile, name, re)
				require.LessOrEqual(t, re, golden.Tolerance, "%s tile %q %s", c.name, tile, name)
			}
			copy(w.DLogp, dlogp)
			copy(w.DEnt, dent)
			copy(w.DValue, dval)
			want := make([]float32, l.Size)
			tg := gru.NewTableGradient(l)
			w.Backward(params, dv, want, tg.Buffer())
			tg.Apply(params, want)
			for _, tn := range l.Tensors {
				re := golden.RelErr(tn.View(grad), f64s(tn.View(want)))
				t.Logf("%s tile %q grad %-18s rel err %.2e", c.name, tile, tn.Name, re)
				require.LessOrEqual(t, re, golden.Tolerance, "%s tile %q grad %s", c.name, tile, tn.Name)
			}
			var sq float64
			for _, g := range want {
				sq += float64(g) * float64(g)
			}
			require.InEpsilon(t, math.Sqrt(sq), e.finHost[finNorm], 1e-4, "%s tile %q norm", c.name, tile)
		}
	}
}

// TestGPUReadingTrainingMatchesCPU: a few updates of -task calc -context
// read (every level drawn per episode) through trainer.Trainer on both
// engines, from the initial model and from a CPU-trained one: the same
// loss, reward and gradient norm as TestGPUCalcTrainingMatchesCPU holds
// them (the first update's rewards and solved episodes exactly), and greedy
// evaluations of every level.
func TestGPUReadingTrainingMatchesCPU(t *testing.T) {
	openGPU(t).Close()
	for _, pretrain := range []int{0, 40} {
		cfg := calcConfig(t, "", -1)
		cfg.Batch, cfg.Curriculum, cfg.Context = 96, "mixed", trainer.ContextRead
		host := trainedOnCPU(t, cfg, pretrain)
		g, err := newGPURun(cfg)
		require.NoError(t, err)
		t.Cleanup(g.Close)
		require.Equal(t, task.LongestContext(g.e.task), g.e.R, "the task's longest context")
		if pretrain > 0 {
			f, err := host.Checkpoint()
			require.NoError(t, err)
			require.NoError(t, g.Restore(f))
		}
		updatesMatch(t, fmt.Sprintf("pretrain %d", pretrain), host, g, pretrain+1, pretrain+4, true)
		want, err := host.EvaluateAll(200, 9, task.HeldOut)
		require.NoError(t, err)
		got, err := g.EvaluateAll(200, 9, task.HeldOut)
		require.NoError(t, err)
		for lv := range want {
			t.Logf("pretrain %d level %d: solve rate CPU %.3f GPU %.3f, reward %.4f %.4f", pretrain, lv, want[lv].SolveRate, got[lv].SolveRate, want[lv].MeanReward, got[lv].MeanReward)
			require.InDelta(t, want[lv].SolveRate, got[lv].SolveRate, 0.02, "level %d solve rate", lv)
			require.InDelta(t, want[lv].MeanReward, got[lv].MeanReward, 0.03, "level %d reward", lv)
		}
	}
}
