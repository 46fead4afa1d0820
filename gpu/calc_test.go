//go:build cgo

package gpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// calcConfig is the calc task's default recipe, cut to a test's size.
func calcConfig(t testing.TB, levels string, partialCredit float64) trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.TaskSpec = "calc", calctask.CalcSpec{Levels: levels}.String()
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	if partialCredit >= 0 {
		cfg.TaskSpec = calctask.CalcSpec{Levels: levels, PartialCredit: partialCredit}.String()
	}
	cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = 0, 0, 0, 2
	return cfg
}

// scoreOnGPU runs simdrl_env_score with the calculator's scorer on the
// instances and programs (episode i: progs[i]) and returns rewards and
// correct flags.
func scoreOnGPU(t *testing.T, d *Device, ops []interp.Op, partialCredit float64, ins []task.Instance, progs [][]int32) ([]float64, []bool) {
	n, maxlen := len(ins), 1
	for _, p := range progs {
		maxlen = max(maxlen, len(p))
	}
	recs, acts, lens := make([]int32, record.Words*n), make([]int32, n*maxlen), make([]int32, n)
	for i := range ins {
		record.Pack(recs[record.Words*i:], &ins[i])
		copy(acts[i*maxlen:], progs[i])
		lens[i] = int32(len(progs[i]))
	}
	table := record.OpTable(ops)
	reward, correct := make([]float64, n), make([]int32, n)
	require.NoError(t, d.do(func() error {
		var bufs [7]devPtr // the op table, records, actions, lengths; rewards, steps (unread), correct
		sizes := []int{4 * len(table), 4 * len(recs), 4 * len(acts), 4 * n, 8 * n, 4 * n, 4 * n}
		for i := range bufs {
			var err error
			if bufs[i], err = d.alloc(sizes[i]); err != nil {
				return err
			}
			defer d.free(bufs[i])
		}
		for i, src := range [][]int32{table, recs, acts, lens} {
			if err := upload(bufs[i], src); err != nil {
				return err
			}
		}
		var a args
		a.i32("scorer", scoreCalc).ptr("ops", bufs[0]).i32("V", len(ops)).f64("partial_credit", partialCredit).ptr("tasks", bufs[1]).ptr("actions", bufs[2]).
			ptr("len", bufs[3]).i32("n", n).i32("maxlen", maxlen).ptr("reward", bufs[4]).ptr("steps", bufs[5]).ptr("correct", bufs[6])
		if err := d.launch("simdrl_env_score", gridFor(n), block256, 0, &a); err != nil {
			return err
		}
		if err := download(reward, bufs[4]); err != nil {
			return err
		}
		return download(correct, bufs[6])
	}))
	ok := make([]bool, n)
	for i, c := range correct {
		ok[i] = c != 0
	}
	return reward, ok
}

// TestGPUCalcScoresAsCPU: the calculator's op-table interpreter (calc.cuh)
// rewards programs bit for bit as calc.Run does, on every default level and
// on levels of all eight digits, both splits, partial-credit weights whose
// quotients round, and programs that
// answer, run out of budget, read past the operands or hold tokens outside
// the vocabulary; besides random programs, each level's shortest program.
func TestGPUCalcScoresAsCPU(t *testing.T) {
	d := openGPU(t)
	for _, c := range []struct {
		levels string
		pc     float64
	}{{"", 0}, {"", 0.3}, {"", 1.0 / 3}, {"", 0.7}, {eightDigits, 0.3}} {
		pc := c.pc
		tk, err := calctask.Calc(c.levels, pc)
		require.NoError(t, err)
		it := tk.(task.Interpreted)
		key := rng.NewKey(11)
		var ins []task.Instance
		var progs [][]int32
		for lv, l := range tk.Levels() {
			short := shortestProgram(t, c.levels, lv)
			for b := 0; b < 300; b++ {
				split := task.Split(b % 2)
				in := tk.Draw(key, 5, uint32(b), rng.PurposeTask, lv, split)
				w := key.Block(6, uint32(b), uint32(lv), rng.PurposeAction)
				prog := make([]int32, int(w[0]%uint32(l.Budget+4)))
				for s := range prog {
					w := key.Block(7, uint32(b), uint32(s), rng.PurposeAction)[lv%4]
					if b%3 == 0 && s < len(prog)-1 {
						prog[s] = calc.FirstTool + int32(w%uint32(calc.ANS-calc.FirstTool)) // a tool but ANS: programs that compute, use memory, run out of budget
					} else {
						prog[s] = int32(w%uint32(calc.Vocab+3)) - 1 // −1 … Vocab+1: tokens outside the vocabulary too
					}
				}
				if b%5 == 0 {
					prog = short
				}
				ins, progs = append(ins, in), append(progs, prog)
			}
		}
		reward, correct := scoreOnGPU(t, d, it.Ops(), pc, ins, progs)
		solved, credited := 0, 0
		for i := range ins {
			o := task.Score(tk, &ins[i], progs[i])
			require.Equalf(t, math.Float64bits(o.Reward), math.Float64bits(reward[i]), "pc %v episode %d (level %d, %s): reward %v, want %v",
				pc, i, ins[i].Level, calc.ProgramString(progs[i]), reward[i], o.Reward)
			require.Equal(t, o.Correct, correct[i], "pc %v episode %d correct", pc, i)
			if o.Correct {
				solved++
			}
			if o.Reward != 0 && o.Reward != 1 {
				credited++
			}
		}
		t.Logf("levels %q, partial credit %v: %d programs, %d correct, %d with partial credit", c.levels, pc, len(ins), solved, credited)
		require.Positive(t, solved)
		if pc > 0 {
			require.Positive(t, credited)
		}
	}
}

// eightDigits is a curriculum whose levels show all eight digits a–h and
// five with memory.
const eightDigits = "a+b+c+d+e+f+g+h, a*b-c*d+e"

// shortestProgram is the search's shortest program for level lv of the
// curriculum spec ("" for the default).
func shortestProgram(t *testing.T, spec string, lv int) []int32 {
	t.Helper()
	if spec == "" {
		spec = calc.DefaultLevelsSpec
	}
	ls, err := calc.ParseLevels(spec)
	require.NoError(t, err)
	return ls[lv].Shortest
}

// trainedOnCPU trains cfg's task on the CPU for updates updates and
// returns the CPU engine (closed by the test's cleanup).
func trainedOnCPU(t *testing.T, cfg trainer.Config, updates int) *hostRun {
	host, err := newHostRun(cfg)
	require.NoError(t, err)
	t.Cleanup(host.Close)
	for u := 0; u < updates; u++ {
		_, err := host.Update()
		require.NoError(t, err)
	}
	return host
}

// TestGPUCalcGreedyMatchesCPU: with a CPU-trained calc model loaded, the GPU
// refuses an instance outside the task's tables, masks the tokens that are
// not actions as the CPU does (the derived head bias, bit for bit), writes
// the CPU's greedy programs on the same held-out instances (an episode may
// differ only at a near-tie), and evaluates every level to the CPU's solve
// rates and rewards on both splits.
func TestGPUCalcGreedyMatchesCPU(t *testing.T) {
	d := openGPU(t)
	cfg := calcConfig(t, "a*b, a*b+c, a*b+c*d", -1)
	cfg.Seed, cfg.EvalBatch = 3, 500
	host := trainedOnCPU(t, cfg, 150)
	e := testEngine(t, d, cfg, host.Params())
	l := e.l
	dv := gru.NewDerived(l)
	dv.Compute(l, host.Params())
	bias := make([]float32, l.Vocab+1)
	require.NoError(t, d.do(func() error { return download(bias, e.headsB) }))
	require.Equal(t, dv.HeadsBias, bias, "derived head bias with the not-action offsets")
	tk := host.Task()
	bad := tk.Draw(e.key, 1, 0, rng.PurposeTask, 0, task.HeldOut)
	bad.Level = int32(len(tk.Levels())) // no embedding: refused, not read out of bounds
	require.NoError(t, d.do(func() error {
		_, err := e.greedyPrograms([]task.Instance{bad})
		require.ErrorContains(t, err, "has levels 0..2")
		return nil
	}))
	const n, round = 500, 77
	for lv := range tk.Levels() {
		ins := make([]task.Instance, n)
		for b := range ins {
			ins[b] = tk.Draw(e.key, round, uint32(b), enginekit.EvalPurpose(lv), lv, task.HeldOut)
		}
		var acts []int32
		require.NoError(t, d.do(func() error { var err error; acts, err = e.greedyPrograms(ins); return err }))
		w, err := gru.NewWorkspace(l, n, cfg.Steps)
		require.NoError(t, err)
		w.Reset(n)
		var ctx [gru.MaxContext]int32
		for b := range ins {
			k := ins[b].WriteContext(ctx[:], task.CTX)
			w.SetContext(b, lv, ctx[:k])
		}
		w.Forward(host.Params(), dv, gru.Greedy, gru.Stream{})
		ties, solvedGPU, solvedCPU := 0, 0, 0
		for b := 0; b < n; b++ {
			for s := 0; s < cfg.Steps; s++ {
				got := acts[b*cfg.Steps+s]
				require.NotContains(t, tk.NotActions(), got, "level %d episode %d step %d: the GPU wrote a token that is not an action", lv, b, s)
				if want := w.Action(b, s); got != want {
					require.InDeltaf(t, w.LogpOf(b, s, want), w.LogpOf(b, s, got), 1e-5, "level %d episode %d step %d: GPU %d, CPU %d", lv, b, s, got, want)
					ties++
					break
				}
			}
			cpuProg := make([]int32, cfg.Steps)
			for s := range cpuProg {
				cpuProg[s] = w.Action(b, s)
			}
			if task.Score(tk, &ins[b], acts[b*cfg.Steps:(b+1)*cfg.Steps]).Correct {
				solvedGPU++
			}
			if task.Score(tk, &ins[b], cpuProg).Correct {
				solvedCPU++
			}
		}
		t.Logf("level %d (%s): %d episodes, solved GPU %d CPU %d, %d differ at a near-tie", lv, tk.Levels()[lv].Name, n, solvedGPU, solvedCPU, ties)
		require.LessOrEqual(t, ties, n/50)
	}
	for _, split := range []task.Split{task.HeldOut, task.Training} {
		want, err := host.EvaluateAll(n, round, split)
		require.NoError(t, err)
		got := make([]trainer.EvalResult, len(want))
		require.NoError(t, d.do(func() error {
			for lv := range got {
				var err error
				if got[lv], err = e.evaluate(lv, n, round, split); err != nil {
					return err
				}
			}
			return nil
		}))
		for lv := range want {
			t.Logf("%s level %d: solve rate CPU %.3f GPU %.3f, reward %.4f %.4f", split, lv, want[lv].SolveRate, got[lv].SolveRate, want[lv].MeanReward, got[lv].MeanReward)
			require.InDelta(t, want[lv].SolveRate, got[lv].SolveRate, 0.02, "%s level %d solve rate", split, lv)
			require.InDelta(t, want[lv].MeanReward, got[lv].MeanReward, 0.03, "%s level %d reward", split, lv)
		}
	}
}

// TestGPUCalcTrainingMatchesCPU: a few calc updates on both devices, on the
// default curriculum (every level drawn per episode) and on one level, from
// the initial model and from a CPU-trained one: the host-drawn instances, the op-table rewards, the
// budget mask and the level embeddings give the CPU's loss, reward and
// gradient norm.
func TestGPUCalcTrainingMatchesCPU(t *testing.T) {
	openGPU(t).Close()
	for _, c := range []struct {
		name       string
		curriculum string
		pretrain   int
	}{{"mixed", "mixed", 0}, {"blocks", "blocks", 0}, {"trained", "mixed", 120}} {
		cfg := calcConfig(t, "", -1)
		cfg.Batch, cfg.Curriculum = 96, c.curriculum
		if c.curriculum == "blocks" {
			cfg.TrainLevels = []int{5} // every update plays the last level, a·b+c·d−e·f: six digits, the longest budget
		}
		host := trainedOnCPU(t, cfg, c.pretrain)
		g, err := newGPURun(cfg)
		require.NoError(t, err)
		t.Cleanup(g.Close)
		if c.pretrain > 0 { // the CPU's model, Adam's moments and counters
			f, err := host.Checkpoint()
			require.NoError(t, err)
			require.NoError(t, g.Restore(f))
		}
		updatesMatch(t, c.name, host, g, c.pretrain+1, c.pretrain+4, false)
	}
}

// opaqueTask is a task the kernels cannot score: another task behind an
// interface that hides its op table (it is no task.Interpreted) and its
// identity.
type opaqueTask struct{ task.Task }

// TestGPURefusesTasksItCannotScore: the seed task and task.Interpreted ones
// have a scorer; any other task is refused by name, before any launch.
func TestGPURefusesTasksItCannotScore(t *testing.T) {
	seed, err := scorerOf(seedtask.Seed())
	require.NoError(t, err)
	require.Equal(t, scoreSeed, seed.kind)
	tk, err := calctask.Calc("", 0.3)
	require.NoError(t, err)
	c, err := scorerOf(tk)
	require.NoError(t, err)
	require.Equal(t, scoreCalc, c.kind)
	require.Equal(t, calc.Ops[:], c.ops)
	require.Equal(t, 0.3, c.partialCredit)
	_, err = scorerOf(opaqueTask{tk})
	require.ErrorContains(t, err, "not calc")
	_, err = scorerOf(opaqueTask{seedtask.Seed()})
	require.ErrorContains(t, err, "not seed", "a task is the seed task by identity, not by name")
}

// endedTask is a task the kernels score (task.Interpreted) that ends its
// contexts with a token of its own (task.ContextEnder).
type endedTask struct {
	task.Interpreted
	end int32
}

func (t endedTask) ContextEnd() int32 { return t.end }

// TestGPUContextEndIsTheTasks: the kernels start every rollout at the
// task's context end (the rollout's ctx_end: CTX for calc, the tape's own
// token), so a task that declares another end is scored with it, and one
// whose end is outside its vocabulary is refused in one line before any
// launch.
func TestGPUContextEndIsTheTasks(t *testing.T) {
	tk, err := calctask.Calc("", 0.3)
	require.NoError(t, err)
	it := tk.(task.Interpreted)
	c, err := scorerOf(endedTask{it, 3})
	require.NoError(t, err)
	require.Equal(t, scoreCalc, c.kind)
	require.Equal(t, int32(3), c.ctxEnd)
	c, err = scorerOf(it)
	require.NoError(t, err)
	require.Equal(t, int32(task.CTX), c.ctxEnd)
	_, err = scorerOf(endedTask{it, int32(it.Vocab())})
	require.EqualError(t, err, fmt.Sprintf("gpu: task calc ends its contexts with token %d, outside its vocabulary of %d", it.Vocab(), it.Vocab()))
	cfg := trainer.DefaultRecipe()
	cfg.Task = "calc"
	cfg, err = trainer.WithTask(cfg)
	require.NoError(t, err)
	_, err = NewWithTask(cfg, endedTask{it, -1})
	require.ErrorContains(t, err, "ends its contexts with token -1")
}
