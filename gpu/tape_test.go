//go:build cgo

package gpu

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/simdrl/simdrl/env/tape"
	"github.com/simdrl/simdrl/env/taperules"
	"github.com/simdrl/simdrl/gpu/internal/devfn"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// tapeConfig is the tape task's default recipe for spec, cut to a test's
// size.
func tapeConfig(t testing.TB, spec string) trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.TaskSpec = "tape", spec
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = 0, 0, 0, 2
	cfg.Hidden, cfg.Batch = 32, 48
	return cfg
}

// TestGPUTapeScorer: the kernels see the tape task as its machine's variant
// and each token's tool (taperules.Ruled), its observations and its context
// end, for every machine of the task; an episode's machine has the bytes
// tape.cuh gives it.
func TestGPUTapeScorer(t *testing.T) {
	require.Equal(t, devfn.TapeLayout()[9], tapeStateBytes, "the machines buffer's bytes an episode are tape.cuh's")
	for _, spec := range []string{"", "branching=on", "rules=loose", "pending=h", "observe=off"} {
		tk, err := task.Open("tape", spec)
		require.NoError(t, err)
		sc, err := scorerOf(tk)
		require.NoError(t, err)
		r := tk.(taperules.Ruled).TapeRules()
		require.Equal(t, scoreTape, sc.kind)
		require.Equal(t, int(r.Variant), sc.observe)
		require.Equal(t, task.Observations(tk), sc.obs)
		require.Equal(t, task.ContextEnd(tk), sc.ctxEnd)
		require.NotEqual(t, task.CTX, sc.ctxEnd, "the tape's context end is its own")
		require.Len(t, sc.ops, tk.Vocab())
		for tok, op := range sc.ops {
			require.Equal(t, int32(r.Tools[tok]), int32(op.Kind), "spec %q token %d", spec, tok)
		}
		require.Positive(t, tokenBlock(sc.obs*tk.Vocab()), "spec %q: its token table fits simdrl_token_partial", spec)
	}
}

// TestGPURefusesTheReadingTape: the kernels have no reading tape entry
// point, so a tape task that reads its context (head=context, whose
// default context is read) is refused in one line before the device is
// opened.
func TestGPURefusesTheReadingTape(t *testing.T) {
	cfg := tapeConfig(t, "head=context; longer=6,7")
	require.Equal(t, trainer.ContextRead, cfg.Context)
	tk, err := task.Open("tape", cfg.TaskSpec)
	require.NoError(t, err)
	_, err = NewWithTask(cfg, tk) // refused before the device is opened: no GPU needed
	var fe *trainer.FieldError
	require.Truef(t, errors.As(err, &fe), "%v", err)
	require.Equal(t, "context", fe.Field)
	require.Contains(t, err.Error(), "task tape")
	require.Contains(t, err.Error(), "train it on the CPU")
	require.NotContains(t, err.Error(), "\n")
}

// TestGPURefusesContextsPastTheRecord: a record holds record.MaxShown
// context tokens, so a task whose levels show more is refused in one line
// before the device is opened: a level one token past it, and head=context
// with its default longer sizes (up to 32 leaves), read or taken as a bag.
func TestGPURefusesContextsPastTheRecord(t *testing.T) {
	_, err := scorerOf(newShownTask(t, readLevels))
	require.NoError(t, err, "contexts of record.MaxShown tokens fit")
	_, err = scorerOf(pastRecord{newShownTask(t, readLevels)})
	require.ErrorContains(t, err, fmt.Sprintf("shows contexts of up to %d tokens, the CUDA kernels at most %d", record.MaxShown+1, record.MaxShown))
	for _, context := range []string{trainer.ContextRead, trainer.ContextBag} {
		cfg := tapeConfig(t, "head=context")
		cfg.Context = context
		tk, err := task.Open("tape", cfg.TaskSpec)
		require.NoError(t, err)
		require.Greater(t, task.LongestContext(tk), record.MaxShown)
		_, err = NewWithTask(cfg, tk) // refused before the device is opened: no GPU needed
		require.ErrorContains(t, err, "task tape shows contexts of up to", context)
		require.ErrorContains(t, err, "train it on the CPU", context)
		require.NotContains(t, err.Error(), "\n")
	}
}

// pastRecord is the shown task with levels that show one token more than a
// record holds.
type pastRecord struct{ shownTask }

func (p pastRecord) Levels() []task.Level {
	levels := p.shownTask.Levels()
	for i := range levels {
		levels[i].Context = record.MaxShown + 1
	}
	return levels
}

// TestGPUTapeTrainingMatchesCPU: the tape task trains on the GPU as on the
// CPU, the machine stepped inside the rollout (tape.cuh, in global memory)
// and its observations fed back: the first update's rewards and solved
// episodes equal, the losses and gradient norms within rounding; then the
// greedy programs of every size, up to 32 leaves (rollouts past the old
// 64-step bound), are the CPU's token for token (one near-tie allowed a
// size), and evaluations agree. For the branching machine (154
// observations: a token table of 8·154 rows) after 20 CPU updates, and the
// strict one from the start: neither policy solves much yet (the programs
// are the check; the shunting-yard model below solves).
func TestGPUTapeTrainingMatchesCPU(t *testing.T) {
	openGPU(t).Close()
	for _, tc := range []struct {
		spec     string
		pretrain int
	}{{"branching=on; partial_credit=0.3; longer=8,32", 20}, {"partial_credit=0.3; longer=12", 0}} {
		cfg := tapeConfig(t, tc.spec)
		require.Greater(t, cfg.Steps, 64, "spec %q: rollouts as long as the longest budget", tc.spec)
		host := trainedOnCPU(t, cfg, tc.pretrain)
		g, err := newGPURun(cfg)
		require.NoError(t, err)
		t.Cleanup(g.Close)
		require.Equal(t, scoreTape, g.e.scoreKind)
		if tc.pretrain > 0 {
			f, err := host.Checkpoint()
			require.NoError(t, err)
			require.NoError(t, g.Restore(f))
		}
		updatesMatch(t, tc.spec, host, g, tc.pretrain+1, tc.pretrain+3, true)
		// Greedy programs of every size, up to 32 leaves (rollouts past the
		// old 64-step bound): each observation the policy reads comes from
		// the machine, so one wrong observation changes the program after it.
		tk := host.Task()
		const n = 24
		for lv := range tk.Levels() {
			ins, want, got := greedyOnBoth(t, host, g, lv, 5, n)
			differ, reward := 0, 0.0
			for b := range ins {
				w, gp := want[b*cfg.Steps:(b+1)*cfg.Steps], got[b*cfg.Steps:(b+1)*cfg.Steps]
				if !slices.Equal(w, gp) {
					differ++ // a near-tie that rounding broke the other way
				}
				reward += task.Score(tk, &ins[b], gp).Reward
			}
			t.Logf("%q level %d (%s, budget %d): %d greedy programs, %d differ, GPU reward %.3f", tc.spec, lv, tk.Levels()[lv].Name, tk.Levels()[lv].Budget, n, differ, reward/n)
			require.LessOrEqual(t, differ, 1, "level %d", lv)
		}
		want, err := host.EvaluateAll(40, 9, task.HeldOut)
		require.NoError(t, err)
		got, err := g.EvaluateAll(40, 9, task.HeldOut)
		require.NoError(t, err)
		require.Len(t, got, len(want))
		for lv := range want {
			require.InDelta(t, want[lv].SolveRate, got[lv].SolveRate, 0.05, "level %d solve rate", lv)
			require.InDelta(t, want[lv].MeanReward, got[lv].MeanReward, 0.05, "level %d reward", lv)
		}
	}
}

// greedyOnBoth draws n transfer instances of level lv (round round) and
// plays them greedily on the CPU (want) and on the GPU (got).
func greedyOnBoth(t *testing.T, host *hostRun, g *gpuRun, lv int, round uint32, n int) (ins []task.Instance, want, got []int32) {
	t.Helper()
	tk := host.Task()
	ins = make([]task.Instance, n)
	for b := range ins {
		ins[b] = tk.Draw(g.e.key, round, uint32(b), rng.PurposeEval, lv, task.Transfer)
	}
	want, err := host.GreedyPrograms(ins)
	require.NoError(t, err)
	got, err = g.GreedyPrograms(ins)
	require.NoError(t, err)
	return ins, want, got
}

// shuntingYardModel sets params to a model whose greedy policy is the
// shunting-yard table of machine v (tape.ShuntingYard, or
// ShuntingYardBranching): no recurrence (W_hh = 0, the update gate shut by
// its bias, so h is the candidate of this step's input alone), the
// observation's embedding is the table's tool as a one-hot unit, the
// candidate reads it, and the policy head turns unit k into the tokens of
// tool k. It solves every size only if every observation it reads is the
// machine's.
func shuntingYardModel(l *gru.Layout, r taperules.Rules, params []float32) {
	clear(params)
	d := l.Hidden
	table := tape.ShuntingYard
	if r.Variant&taperules.Branching != 0 {
		table = tape.ShuntingYardBranching
	}
	for o := 0; o < l.Observations; o++ {
		params[l.ObsEmb.Offset+o*d+int(table(int32(o)))] = 3
	}
	for j := 0; j < d; j++ {
		params[l.BIH.Offset+d+j] = -30       // z ≈ 0: h' = n
		params[l.WIH.Offset+(2*d+j)*d+j] = 1 // n_j = tanh(x_j)
	}
	for tok, tool := range r.Tools {
		if tool >= 0 && int(tool) < d {
			params[l.PiW.Offset+tok*d+int(tool)] = 20
		}
	}
}

// TestGPUTapeShuntingYardModel: with a hand-set model that is the
// shunting-yard table, greedy play on the GPU writes the CPU's programs
// token for token and solves every size, 32 leaves included (rollouts of up
// to 221 steps), on the strict and the branching machine, on every tape
// entry point: one observation the GPU's machine got wrong would change a
// tool, and the answer.
func TestGPUTapeShuntingYardModel(t *testing.T) {
	openGPU(t).Close()
	for _, spec := range []string{"branching=on; partial_credit=0.3; longer=6,32", "partial_credit=0.3; longer=16,32"} {
		cfg := tapeConfig(t, spec)
		host, err := newHostRun(cfg)
		require.NoError(t, err)
		t.Cleanup(host.Close)
		g, err := newGPURun(cfg)
		require.NoError(t, err)
		t.Cleanup(g.Close)
		tk := host.Task()
		params := make([]float32, g.e.l.Size)
		shuntingYardModel(g.e.l, tk.(taperules.Ruled).TapeRules(), params)
		require.NoError(t, host.SetParams(params))
		require.NoError(t, g.SetParams(params))
		const n = 16
		saved := tileOverride
		t.Cleanup(func() { tileOverride = saved })
		for lv := range tk.Levels() {
			// Every tape entry point (1, 2, 4 and 8 episodes a thread), one
			// level each in turn: the planner alone picks only the smallest
			// for these batches.
			tileOverride = [...]string{"1x1", "2x2", "4x2", "8x2"}[lv%4]
			ins, want, got := greedyOnBoth(t, host, g, lv, 6, n)
			require.Equal(t, want, got, "%q level %d tile %s: the GPU's greedy programs", spec, lv, tileOverride)
			for b := range ins {
				o := task.Score(tk, &ins[b], got[b*cfg.Steps:(b+1)*cfg.Steps])
				require.True(t, o.Correct, "%q level %d episode %d", spec, lv, b)
				require.Equal(t, 1.3, o.Reward, "%q level %d episode %d: every operator applied", spec, lv, b)
			}
		}
		tileOverride = saved
		res, err := g.EvaluateAll(n, 3, task.Transfer)
		require.NoError(t, err)
		for lv, r := range res {
			require.Equal(t, 1.0, r.SolveRate, "%q level %d", spec, lv)
		}
	}
}
