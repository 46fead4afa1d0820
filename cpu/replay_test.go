package cpu

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// itemEngine is a CPU engine on tasktest.ItemCalc's a*b and a+b (budget 5) with
// threads threads.
func itemEngine(t *testing.T, threads int) (*Engine, trainer.Config) {
	c, err := tasktest.NewItemCalc("levels=a*b, a+b", nil)
	require.NoError(t, err)
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.TaskSpec = "calc", "levels=a*b, a+b"
	cfg, err = trainer.WithTask(cfg)
	require.NoError(t, err)
	cfg.Batch, cfg.Chunk, cfg.Threads, cfg.Context = 24, 8, threads, trainer.ContextRead
	e, err := NewWithTask(cfg, c)
	require.NoError(t, err)
	return e, cfg
}

func program(steps int, toks ...int32) []int32 {
	p := make([]int32, steps)
	for i := range p {
		p[i] = calc.ANS
	}
	copy(p, toks)
	return p
}

// replays is n replayed episodes of the two levels' programs, the a+b one
// with tokens after its answer that must not count.
func replays(e *Engine, n int) []task.Episode {
	var out []task.Episode
	for r := 0; r < n; r++ {
		lv := r % 2
		p := program(e.cfg.Steps, calc.LOAD, calc.MUL, calc.ANS)
		if lv == 1 {
			p = program(e.cfg.Steps, calc.LOAD, calc.ADD, calc.ANS, calc.STO, calc.LOAD)
		}
		in := e.task.Draw(e.key, 99, uint32(r), rng.PurposeEval, lv, task.Training)
		out = append(out, task.Episode{Instance: in, Program: p})
	}
	return out
}

// TestReplayLossIsTheProgramsLogLikelihood: LossTerms.Replay is −(1/R)
// Σ_r Σ_{t ≤ answer} logp_t of the replayed tokens, computed here by a
// teacher-forced forward of gru's own, and it is in Total with its weight.
func TestReplayLossIsTheProgramsLogLikelihood(t *testing.T) {
	e, cfg := itemEngine(t, 2)
	defer e.Close()
	rs := replays(e, 5)
	params := append([]float32(nil), e.model.params...)
	ws, err := gru.NewWorkspace(e.layout, len(rs), cfg.Steps)
	require.NoError(t, err)
	ws.Reset(len(rs))
	var ctx [gru.MaxContext]int32
	for b := range rs {
		k := rs[b].Instance.WriteContext(ctx[:], task.CTX)
		ws.SetContext(b, int(rs[b].Instance.Level), ctx[:k])
		for s, a := range rs[b].Program {
			ws.SetAction(b, s, a)
		}
	}
	ws.Forward(params, e.model.derived, gru.Teacher, gru.Stream{})
	var want float64
	for b := range rs {
		for s := 0; s < 3; s++ { // the answer is the third token of both
			want -= float64(ws.Logp(b, s)) / float64(len(rs))
		}
	}
	st, err := e.Update(trainer.Plan{Update: 1, Level: 0, Entropy: 0.1, Replay: rs, ReplayCoef: 0.7})
	require.NoError(t, err)
	require.InDelta(t, want, st.Loss.Replay, 1e-9*want)
	noReplay, _ := itemEngine(t, 2)
	defer noReplay.Close()
	st0, err := noReplay.Update(trainer.Plan{Update: 1, Level: 0, Entropy: 0.1})
	require.NoError(t, err)
	require.InDelta(t, st0.Loss.Total+0.7*want, st.Loss.Total, 1e-9)
	require.Equal(t, st0.SolveRate, st.SolveRate, "replays count in no solve rate")
	require.Equal(t, st0.MeanReward, st.MeanReward)
}

// TestReplayTeachesTheProgram: replaying a program alone (no entropy, the
// sampled episodes' loss outweighed) makes it the greedy one, on both
// levels: the gradient has the right sign and reaches every step to the
// answer.
func TestReplayTeachesTheProgram(t *testing.T) {
	e, _ := itemEngine(t, 2)
	defer e.Close()
	rs := replays(e, 8)
	for u := 1; u <= 60; u++ {
		_, err := e.Update(trainer.Plan{Update: u, Level: 0, Replay: rs, ReplayCoef: 20})
		require.NoError(t, err)
	}
	ins := []task.Instance{rs[0].Instance, rs[1].Instance}
	progs, err := e.GreedyPrograms(ins)
	require.NoError(t, err)
	T := e.cfg.Steps
	require.Equal(t, rs[0].Program[:3], progs[:3])
	require.Equal(t, rs[1].Program[:3], progs[T:T+3])
}

// TestRecordAndItems: Plan.Record gets every sampled episode (the instance
// the weighted item drew, its program, reward and verdict), and items of
// weight 0 are never drawn.
func TestRecordAndItems(t *testing.T) {
	e, cfg := itemEngine(t, 2)
	defer e.Close()
	rec := make([]task.Episode, cfg.Batch)
	for i := range rec {
		rec[i].Program = make([]int32, cfg.Steps)
	}
	items := [][]float64{{0, 1, 1}, {0, 0, 1}} // level 0: item 1; level 1: item 2
	played := []int{0, 1}
	_, err := e.Update(trainer.Plan{Update: 3, Level: -1, Played: played, CDF: []float64{0.5, 1}, Items: items, Record: rec})
	require.NoError(t, err)
	seen := map[int32]int{}
	for i, ep := range rec {
		lv := ep.Instance.Level
		seen[lv]++
		require.Equal(t, lv+1, ep.Instance.Item, "episode %d", i)
		want := e.task.Draw(e.key, 3, uint32(i), rng.PurposeTask, int(lv), task.Training)
		want.Item = lv + 1
		require.Equal(t, want, ep.Instance)
		o := task.Score(e.task, &ep.Instance, ep.Program)
		require.Equal(t, float64(float32(o.Reward)), ep.Reward, "the return as the loss reads it (float32)")
		require.Equal(t, o.Correct, ep.Correct)
	}
	require.Len(t, seen, 2, "both levels played")
}

// TestReplayIgnoresThreadsAndAllocatesNothing: an update with replays is
// the same for any thread count, and allocates nothing once warm.
func TestReplayIgnoresThreadsAndAllocatesNothing(t *testing.T) {
	var params [][]float32
	for _, threads := range []int{1, 3} {
		e, _ := itemEngine(t, threads)
		rs := replays(e, 11)
		for u := 1; u <= 3; u++ {
			_, err := e.Update(trainer.Plan{Update: u, Level: 0, Entropy: 0.1, Replay: rs, ReplayCoef: 0.5})
			require.NoError(t, err)
		}
		if threads == 1 {
			u := 4
			require.Zero(t, testing.AllocsPerRun(3, func() {
				_, err := e.Update(trainer.Plan{Update: u, Level: 0, Entropy: 0.1, Replay: rs, ReplayCoef: 0.5})
				require.NoError(t, err)
				u++
			}))
		} else {
			for u := 4; u <= 7; u++ {
				_, err := e.Update(trainer.Plan{Update: u, Level: 0, Entropy: 0.1, Replay: rs, ReplayCoef: 0.5})
				require.NoError(t, err)
			}
		}
		params = append(params, append([]float32(nil), e.model.params...))
		e.Close()
	}
	require.Equal(t, params[0], params[1])
}

// TestPlanRefusals: a plan the task cannot play is refused before anything
// changes.
func TestPlanRefusals(t *testing.T) {
	e, cfg := itemEngine(t, 1)
	defer e.Close()
	before := append([]float32(nil), e.model.params...)
	bad := replays(e, 2)
	bad[1].Program = bad[1].Program[:2]
	_, err := e.Update(trainer.Plan{Update: 1, Level: 0, Replay: bad, ReplayCoef: 1})
	require.ErrorContains(t, err, "replay 1 has 2 tokens")
	bad = replays(e, 2)
	bad[0].Program[1] = 99
	_, err = e.Update(trainer.Plan{Update: 1, Level: 0, Replay: bad, ReplayCoef: 1})
	require.ErrorContains(t, err, "outside the vocabulary")
	_, err = e.Update(trainer.Plan{Update: 1, Level: 0, Record: make([]task.Episode, cfg.Batch-1)})
	require.ErrorContains(t, err, "the record has")
	require.Equal(t, before, e.model.params)

	plain, err := New(cfg)
	require.NoError(t, err)
	defer plain.Close()
	_, err = plain.Update(trainer.Plan{Update: 1, Level: 0, Replay: replays(e, 1), ReplayCoef: 1})
	require.ErrorContains(t, err, "task.Itemized")
}

// itemRun is a trainer of tasktest.ItemCalc with item focus and replays on the CPU.
func itemRun(t *testing.T) *testRun {
	e, cfg := itemEngine(t, 2)
	e.Close()
	cfg.Replay, cfg.ReplayCoef, cfg.ItemFocus = 6, 0.5, true
	c, err := tasktest.NewItemCalc(cfg.TaskSpec, nil)
	require.NoError(t, err)
	e, err = NewWithTask(cfg, c)
	require.NoError(t, err)
	tr, err := trainer.New(cfg, e.task, e)
	require.NoError(t, err)
	return &testRun{e, tr}
}

// TestItemStateResumesBitIdentically: the item focus and the replay buffer
// are in the checkpoint, so a resumed run equals the run never stopped; a
// damaged item state is refused.
func TestItemStateResumesBitIdentically(t *testing.T) {
	whole := itemRun(t)
	defer whole.Close()
	for u := 0; u < 30; u++ {
		_, err := whole.Update()
		require.NoError(t, err)
	}
	first := itemRun(t)
	defer first.Close()
	for u := 0; u < 15; u++ {
		_, err := first.Update()
		require.NoError(t, err)
	}
	f := snapshot(t, first)
	rewards, ok := f.Lookup("items.replay_buffer.reward")
	require.True(t, ok)
	require.NotEmpty(t, rewards.F64, "15 updates found programs to remember")
	second := itemRun(t)
	defer second.Close()
	require.NoError(t, second.Restore(f))
	for u := 0; u < 15; u++ {
		_, err := second.Update()
		require.NoError(t, err)
	}
	require.Equal(t, hash(t, whole), hash(t, second))

	// The item state matters: the same checkpoint with an empty buffer
	// resumes into another run.
	empty := snapshot(t, first)
	for i, tn := range empty.Tensors {
		if strings.HasPrefix(tn.Name, "items.replay_buffer.") {
			tn.Shape = slices.Clone(tn.Shape)
			tn.Shape[0] = 0
			tn.F64, tn.I32, tn.I64 = tn.F64[:0], tn.I32[:0], tn.I64[:0]
			empty.Tensors[i] = tn
		}
	}
	forgetful := itemRun(t)
	defer forgetful.Close()
	require.NoError(t, forgetful.Restore(empty))
	for u := 0; u < 15; u++ {
		_, err := forgetful.Update()
		require.NoError(t, err)
	}
	require.NotEqual(t, hash(t, whole), hash(t, forgetful))

	bad := snapshot(t, first)
	for _, tn := range bad.Tensors {
		if tn.Name == "items.replay_buffer.item" {
			tn.I64[1] = 7000 // the first entry's item
		}
	}
	require.ErrorContains(t, itemRun(t).Restore(bad), "replay_buffer[0]: item 7000 out of range")
	bad.Tensors = slices.DeleteFunc(bad.Tensors, func(tn checkpoint.Tensor) bool { return strings.HasPrefix(tn.Name, "items.") })
	require.ErrorContains(t, itemRun(t).Restore(bad), "no item state")
}
