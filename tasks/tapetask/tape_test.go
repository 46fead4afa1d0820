package tapetask

import (
	"math"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/env/tape"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

func openTape(t *testing.T, spec string) *tapeTask {
	t.Helper()
	tk, err := task.Open("tape", spec)
	require.NoError(t, err)
	return tk.(*tapeTask)
}

func TestTapeSpecRoundTrips(t *testing.T) {
	for spec, want := range map[string]string{
		"":                                 "",
		"leaves=2..5; longer=6,8,12,16,32": "",
		" partial_credit = 0.3 ":           "partial_credit=0.3",
		"leaves=3..4; longer=none":         "leaves=3..4; longer=none",
		"longer=7, 32":                     "longer=7,32",
		"leaves=6":                         "leaves=6..6; longer=8,12,16,32",
		"rules=strict; observe=on":         "",
		"observe=off; rules=loose":         "rules=loose; observe=off",
		"pending=h; rules=loose":           "rules=loose; pending=h",
		"pending=stack":                    "",
		"depth=1; rules=strict":            "depth=1",
		"depth=0":                          "depth=0",
		"branching=on; partial_credit=0.3": "partial_credit=0.3; branching=on",
		"branching=off":                    "",
		"head=context; longer=6,7":         "longer=6,7; head=context",
		"head=tape":                        "",
	} {
		s, err := ParseTapeSpec(spec)
		if spec == "leaves=6" {
			require.Error(t, err, "6 is not below the default longer sizes")
			s, err = ParseTapeSpec("leaves=6; longer=8,12,16,32")
		}
		require.NoError(t, err, spec)
		require.Equal(t, want, s.String(), spec)
		back, err := ParseTapeSpec(s.String())
		require.NoError(t, err)
		require.Equal(t, s.String(), back.String())
	}
}

func TestTapeSpecRefuses(t *testing.T) {
	for spec, key := range map[string]string{
		"leaves=1..5":                            "leaves",
		"leaves=5..3":                            "leaves",
		"leaves=2..33":                           "leaves; longer=none",
		"leaves=x":                               "leaves",
		"leaves=2..05":                           "leaves",
		"longer=5":                               "longer",
		"longer=8,6":                             "longer",
		"longer=33":                              "longer",
		"longer=":                                "longer",
		"partial_credit=-1":                      "partial_credit",
		"partial_credit=NaN":                     "partial_credit",
		"split=length":                           "task_spec",
		"leaves=2; leaves=3":                     "task_spec",
		"rules=lax":                              "rules",
		"rules=":                                 "rules",
		"observe=no":                             "observe",
		"pending=ops":                            "pending",
		"depth=-1":                               "depth",
		"depth=33":                               "depth",
		"depth=x":                                "depth",
		"branching=yes":                          "branching",
		"branching=on; rules=loose":              "branching",
		"branching=on; pending=h":                "branching",
		"branching=on; observe=off":              "branching",
		"head=eyes":                              "head",
		"head=context; longer=6,7; branching=on": "head",
		"head=context; rules=loose":              "head",
	} {
		_, err := task.Open("tape", spec)
		var se *task.SpecError
		require.ErrorAs(t, err, &se, spec)
		require.Contains(t, key, se.Key, "%s: %v", spec, err)
	}
}

// The task's declarations: tools as actions, its own context end, 35
// observations, one level embedding, the length split's levels.
func TestTapeDeclarations(t *testing.T) {
	tk := openTape(t, "")
	require.Equal(t, "tape", tk.Name())
	require.Equal(t, 6, tk.Vocab())
	require.Equal(t, int32(5), task.ContextEnd(tk))
	require.Equal(t, []int32{5}, tk.NotActions())
	require.Equal(t, tape.ANS, tk.Answer())
	require.Equal(t, 35, task.Observations(tk))
	require.Equal(t, 1, task.Stages(tk))
	_, interp := task.Task(tk).(task.Interpreted)
	require.False(t, interp, "no op table: the GPU cannot run it")
	var names []string
	for i, l := range tk.Levels() {
		names = append(names, l.Name)
		require.Zero(t, l.Context)
		require.LessOrEqual(t, l.Shortest, l.Budget)
		n := tk.sizes[i]
		trained := n <= 5
		require.Equal(t, trained, tk.Items(i, task.Training) > 0, l.Name)
		require.Equal(t, trained, tk.Items(i, task.HeldOut) > 0, l.Name)
		require.Equal(t, !trained, tk.Items(i, task.Transfer) > 0, l.Name)
	}
	require.Equal(t, []string{"2 leaves", "3 leaves", "4 leaves", "5 leaves", "6 leaves", "8 leaves", "12 leaves", "16 leaves", "32 leaves"}, names)
	require.Equal(t, 1134, tk.Items(3, task.Training)+tk.Items(3, task.HeldOut))
	require.Equal(t, 227, tk.Items(3, task.HeldOut))
	require.Equal(t, tape.DrawnMembers, tk.Items(8, task.Transfer))
	require.Equal(t, 0, tk.Items(9, task.Training))
	require.Equal(t, 0, tk.Items(0, task.Split(7)))
}

// A draw is a pure function of its arguments, allocates nothing, is
// DrawItem of its item, passes Check, carries its member's tape on its
// digits, and the shunting-yard table solves it within its budget.
func TestTapeDraw(t *testing.T) {
	tk := openTape(t, "partial_credit=0.3")
	key := rng.NewKey(11)
	for lv := range tk.Levels() {
		for _, sp := range []task.Split{task.Training, task.HeldOut, task.Transfer} {
			if tk.Items(lv, sp) == 0 {
				continue
			}
			digits := map[tape.Cell]bool{}
			for i := uint32(0); i < 300; i++ {
				in := tk.Draw(key, 7, i, rng.PurposeTask, lv, sp)
				require.Equal(t, in, tk.Draw(key, 7, i, rng.PurposeTask, lv, sp))
				require.Equal(t, in, tk.DrawItem(key, 7, i, rng.PurposeTask, lv, sp, int(in.Item)))
				require.NoError(t, task.Check(tk, &in))
				m := tk.items[lv][sp][in.Item]
				var cells [tape.MaxCells]tape.Cell
				got := unpackTape(&in, cells[:], 4)
				require.Len(t, got, len(m.Cells))
				var d []int32
				for j, c := range got {
					if m.Cells[j] == tape.Leaf {
						require.True(t, c.IsDigit())
						d = append(d, int32(c))
						digits[c] = true
					} else {
						require.Equal(t, m.Cells[j], c)
					}
				}
				require.Equal(t, m.Eval(d), in.Data[dataTarget])
				require.Equal(t, int32(TapeBudget(m.Shortest())), in.Budget)
				prog := shuntingYard(tk, &in)
				require.Len(t, prog, m.Shortest())
				o := tk.Score(&in, prog)
				require.True(t, o.Correct, "%s", m.Spelling)
				require.Equal(t, 1.3, o.Reward)
				require.True(t, tk.Verify(&in, prog))
			}
			require.Len(t, digits, 10)
		}
	}
	require.NotEqual(t, tk.Draw(key, 1, 2, rng.PurposeTask, 3, task.Training), tk.Draw(key, 1, 2, rng.PurposeEval, 3, task.Training))
	var sink task.Instance
	require.Zero(t, testing.AllocsPerRun(100, func() {
		sink = tk.Draw(key, 3, 4, rng.PurposeTask, 8, task.Transfer)
		sink = tk.DrawItem(key, 3, 4, rng.PurposeTask, 2, task.HeldOut, 5)
	}))
	_ = sink
}

// shuntingYard is the table policy's program on in, played on the task's
// own Env (so its observations are the Env's).
func shuntingYard(tk *tapeTask, in *task.Instance) []int32 {
	e := tk.NewEnv(1)
	obs := []int32{e.Reset(0, in)}
	var prog []int32
	out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
	for len(prog) < int(in.Budget) {
		a := tape.ShuntingYard(obs[0])
		prog = append(prog, a)
		e.Step([]int32{a}, out)
		obs[0] = out.Obs[0]
		if out.Done[0] {
			break
		}
	}
	return prog
}

// A tape longer than the words can hold is cut, never read past them, and
// a tape of every cell kind round-trips, in 4 bits a cell and in
// branching's 5.
func TestTapePacking(t *testing.T) {
	for bits, cells := range map[int][]tape.Cell{
		4: {tape.Open, 9, tape.Plus, 0, tape.Close, tape.Times, 7, tape.Minus, 3},
		5: {tape.Abs, tape.Max, 9, tape.Comma, tape.Min, 1, tape.Comma, 2, tape.Close, tape.Close, tape.Plus, tape.Open, 0, tape.Minus, 3, tape.Times, 8, tape.Close, tape.Close},
	} {
		var in task.Instance
		in.Data[dataNWords] = int64(packTape(cells, tapeWords(&in), bits))
		var dst [tape.MaxCells]tape.Cell
		require.Equal(t, cells, unpackTape(&in, dst[:], bits))
		long := make([]tape.Cell, tape.MaxCells+1)
		in.Data[dataNWords] = int64(packTape(long, tapeWords(&in), bits))
		require.Len(t, unpackTape(&in, dst[:], bits), tape.MaxCells)
		in.Data[dataNWords] = 99
		require.NotPanics(t, func() { unpackTape(&in, dst[:], bits) })
	}
}

// Verify: only a program that applies every operator to its own subtrees
// and answers is proof for every operand; one right by chance is not.
func TestTapeVerify(t *testing.T) {
	tk := openTape(t, "")
	in := task.Instance{Level: 1, Budget: 20} // its target (Data) 0
	// 0*2+0: 0 either way
	in.Data[dataNWords] = int64(packTape([]tape.Cell{0, tape.Times, 2, tape.Plus, 0}, tapeWords(&in), 4))
	wrong := []int32{tape.PUSHV, tape.PUSHOP, tape.PUSHV, tape.PUSHOP, tape.PUSHV, tape.APPLY, tape.APPLY, tape.ANS}
	require.True(t, tk.Score(&in, wrong).Correct, "0*(2+0) answers 0 too")
	require.False(t, tk.Verify(&in, wrong))
	right := []int32{tape.PUSHV, tape.PUSHOP, tape.PUSHV, tape.APPLY, tape.PUSHOP, tape.PUSHV, tape.APPLY, tape.ANS}
	require.True(t, tk.Verify(&in, right))
	require.False(t, tk.Verify(&in, right[:7]), "no answer")
}

// Stepping is scoring: on random programs (the end token included), every
// row's return is its Score bit for bit, paid at the step that ends it (its
// first ANS or its budget's last step), done from then on, observations
// the machine's; and the Env steps without allocating.
func TestTapeSteppingIsScoring(t *testing.T) {
	checkSteppingIsScoring(t, "partial_credit=0.3")
	checkSteppingIsScoring(t, "partial_credit=0.3; rules=loose; observe=off")
	checkSteppingIsScoring(t, "partial_credit=0.3; pending=h")
}

func checkSteppingIsScoring(t *testing.T, spec string) {
	tk := openTape(t, spec)
	key := rng.NewKey(6)
	acts := []int32{tape.PUSHV, tape.PUSHV, tape.PUSHOP, tape.APPLY, tape.POPPAREN, tape.ANS, tape.NEXT, tape.ADD, tape.SUB, tape.MUL, tk.end()}
	for lv, l := range tk.Levels() {
		T := l.Budget + 2
		const rows = 300
		e := tk.NewEnv(rows)
		ins := make([]task.Instance, rows)
		progs := make([][]int32, rows)
		obs := make([]int32, rows)
		for r := range ins {
			ins[r] = tk.Draw(key, uint32(lv), uint32(r), rng.PurposeTask, lv, task.Split(r%3))
			obs[r] = e.Reset(r, &ins[r])
			if r == 0 {
				progs[r] = shuntingYard(tk, &ins[r])
			}
			for len(progs[r]) < T {
				w := key.Block(9, uint32(r), uint32(len(progs[r])), rng.PurposeAction)
				a := acts[w[0]%uint32(len(acts))]
				progs[r] = append(progs[r], a)
			}
		}
		ret := make([]float64, rows)
		end := make([]int, rows)
		out := task.Transition{Obs: obs, Reward: make([]float64, rows), Done: make([]bool, rows)}
		actions := make([]int32, rows)
		for s := 0; s < T; s++ {
			for r := range actions {
				actions[r] = progs[r][s]
			}
			e.Step(actions, out)
			for r := range rows {
				ret[r] += out.Reward[r]
				if out.Reward[r] != 0 {
					require.Zero(t, end[r], "paid once")
					end[r] = s + 1
				}
				wantDone := false
				for k := 0; k <= s; k++ {
					wantDone = wantDone || progs[r][k] == tape.ANS || k == int(ins[r].Budget)-1
				}
				require.Equal(t, wantDone, out.Done[r], "row %d step %d", r, s)
				require.True(t, out.Obs[r] >= 0 && out.Obs[r] < tape.NumObservations)
			}
		}
		for r := range rows {
			want := tk.Score(&ins[r], progs[r])
			require.Equal(t, math.Float64bits(want.Reward), math.Float64bits(ret[r]), "level %d row %d", lv, r)
			require.Equal(t, want.Correct, e.Correct(r))
		}
		require.Equal(t, !tk.spec.Blind && !tk.spec.Unstacked, e.Correct(0), "the table's program solves row 0 when it sees the stack")
		require.Zero(t, testing.AllocsPerRun(20, func() {
			e.Reset(1, &ins[1])
			e.Step(actions, out)
		}))
	}
}

// Explain traces every tool up to the end, with the machine after it.
func TestTapeExplain(t *testing.T) {
	tk := openTape(t, "partial_credit=0.3")
	in := tk.Draw(rng.NewKey(2), 0, 0, rng.PurposeEval, 1, task.HeldOut)
	prog := shuntingYard(tk, &in)
	ex := tk.Explain(&in, prog)
	require.True(t, ex.Correct)
	require.Equal(t, 1.3, ex.Reward)
	require.Len(t, ex.Trace, len(prog))
	require.Equal(t, "ANS", ex.Trace[len(prog)-1].Token)
	require.Contains(t, ex.Note, "tape ")
	require.Contains(t, ex.Trace[0].State, "head 1 · ")
	require.Contains(t, ex.Trace[len(prog)-1].State, "· 1 values · 0 pending · top ")
	bad := tk.Explain(&in, []int32{tape.APPLY, tape.APPLY})
	require.False(t, bad.Correct)
	require.Contains(t, bad.Note, "no answer")
}

// The comparisons' machines: rules=loose adds the NEXT tool before the
// context end (which moves the head where the strict machine refuses it),
// observe=off hides the operator stack's top from every observation.
func TestTapeVariants(t *testing.T) {
	loose := openTape(t, "rules=loose")
	require.Equal(t, 7, loose.Vocab())
	require.Equal(t, int32(6), task.ContextEnd(loose))
	require.Equal(t, []int32{6}, loose.NotActions())
	require.Equal(t, "NEXT", loose.TokenName(tape.NEXT))
	require.Equal(t, "END", loose.TokenName(6))
	strict := openTape(t, "")
	require.Equal(t, "END", strict.TokenName(tape.NEXT), "the strict task's token 5 is its end")
	key := rng.NewKey(3)
	in := strict.Draw(key, 0, 0, rng.PurposeTask, 3, task.Training)
	require.Contains(t, loose.Explain(&in, []int32{tape.NEXT}).Trace[0].State, "head 1 ")
	require.Contains(t, strict.Explain(&in, []int32{tape.NEXT}).Trace[0].State, "head 0 ")

	unstacked := openTape(t, "pending=h")
	require.Equal(t, 10, unstacked.Vocab())
	require.Equal(t, []int32{9}, unstacked.NotActions())
	require.Equal(t, "MUL", unstacked.TokenName(tape.MUL))
	require.Equal(t, "END", unstacked.TokenName(9))

	blind := openTape(t, "observe=off")
	for _, tk := range []*tapeTask{strict, blind} {
		seen := false // a pending operator observed
		for r := range 50 {
			in := tk.Draw(key, 1, uint32(r), rng.PurposeTask, 3, task.Training)
			e := tk.NewEnv(1)
			obs := []int32{e.Reset(0, &in)}
			out := task.Transition{Obs: obs, Reward: make([]float64, 1), Done: make([]bool, 1)}
			for s := 0; s < int(in.Budget) && !out.Done[0]; s++ {
				e.Step([]int32{tape.ShuntingYard(obs[0])}, out)
				seen = seen || !strings.HasSuffix(tape.ObservationName(obs[0]), "·")
			}
		}
		require.Equal(t, tk == strict, seen, tk.spec.String())
	}
}

// The depth split: at the trained sizes, members nested deeper than depth=D
// are Transfer (never trained, evaluated at the end), the rest train or are
// held out as without it; the longer sizes are Transfer as always.
func TestTapeDepthSplit(t *testing.T) {
	plain, split := openTape(t, ""), openTape(t, "depth=1")
	for lv, n := range split.sizes {
		all := 0
		for sp := task.Training; sp <= task.Transfer; sp++ {
			all += split.Items(lv, sp)
			for _, m := range split.items[lv][sp] {
				if n <= 5 {
					require.Equal(t, sp == task.Transfer, m.Depth > 1, "%d leaves %s %s", n, m.Spelling, sp)
				} else {
					require.Equal(t, task.Transfer, sp)
				}
			}
		}
		require.Equal(t, plain.Items(lv, task.Training)+plain.Items(lv, task.HeldOut)+plain.Items(lv, task.Transfer), all, "every member on one side")
		require.Positive(t, split.Items(lv, task.Training)+split.Items(lv, task.Transfer))
	}
	require.Positive(t, split.Items(3, task.Transfer), "5 leaves nest up to 3 deep")
	require.Zero(t, split.Items(1, task.Transfer), "3 leaves nest at most 1 deep")
}

// tapeDrawsFingerprint is an FNV-1a hash of the default tape task's draws:
// 64 instances of every level and split, every field of each, and its
// observation sequence under the shunting-yard table.
func tapeDrawsFingerprint(t *testing.T, tk *tapeTask) uint64 {
	h := uint64(0xcbf29ce484222325)
	mix := func(v int64) {
		for b := 0; b < 8; b++ {
			h ^= uint64(v>>(8*b)) & 0xff
			h *= 0x100000001b3
		}
	}
	key := rng.NewKey(5)
	for lv := range tk.Levels() {
		for _, sp := range []task.Split{task.Training, task.HeldOut, task.Transfer} {
			if tk.Items(lv, sp) == 0 {
				continue
			}
			for i := uint32(0); i < 64; i++ {
				in := tk.Draw(key, 2, i, rng.PurposeTask, lv, sp)
				const vars = 0 // the fields in the order the fingerprint was taken, the digits shown then (none) too
				for _, v := range []int64{int64(in.Level), vars, int64(in.Budget), in.Data[dataTarget], in.Data[dataNWords], int64(in.Item), int64(in.NContext)} {
					mix(v)
				}
				for _, w := range tapeWords(&in) {
					mix(w)
				}
				e := tk.NewEnv(1)
				mix(int64(e.Reset(0, &in)))
				out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
				for _, a := range shuntingYard(tk, &in) {
					e.Step([]int32{a}, out)
					mix(int64(a))
					mix(int64(out.Obs[0]))
				}
			}
		}
	}
	return h
}

// The default tape task's draws, tapes, budgets, targets and observations
// are those it had before branching and the context read were added (the
// fingerprint was taken on the code before them): today's results stand.
func TestTapeDefaultDrawsUnchanged(t *testing.T) {
	require.Equal(t, uint64(0xdf8507368f915600), tapeDrawsFingerprint(t, openTape(t, "")))
	require.Equal(t, uint64(0xefc781a8418c08a9), tapeDrawsFingerprint(t, openTape(t, "partial_credit=0.3; depth=1")))
}

// openBranching is the tape task with branching=on.
func openBranching(t *testing.T, spec string) tapeBranching {
	t.Helper()
	tk, err := task.Open("tape", spec+"; branching=on")
	require.NoError(t, err)
	return tk.(tapeBranching)
}

// shuntingYardBranching is the branching table's program on in, played on
// the task's own Env, in the task's tokens.
func shuntingYardBranching(tk tapeBranching, in *task.Instance) []int32 {
	e := tk.NewEnv(1)
	obs := e.Reset(0, in)
	var prog []int32
	out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
	for len(prog) < int(in.Budget) {
		a := tk.token(tape.ShuntingYardBranching(obs))
		prog = append(prog, a)
		e.Step([]int32{a}, out)
		obs = out.Obs[0]
		if out.Done[0] {
			break
		}
	}
	return prog
}

// branching=on: KEEP and OTHER are tokens 5 and 6 and END 7, the
// observation is the branching machine's, every draw carries its member's
// tape in 5-bit cells, its budget fits the trainer's bound on steps
// (trainer.MaxSteps, 256), and the branching table solves it through the
// Env; Verify never vouches for a program that branches. The default task
// is no Subsetter (its stop rule and reports stay as they were).
func TestTapeBranching(t *testing.T) {
	tk := openBranching(t, "partial_credit=0.3")
	require.Equal(t, 8, tk.Vocab())
	require.Equal(t, []int32{7}, tk.NotActions())
	require.Equal(t, int32(7), task.ContextEnd(tk))
	require.Equal(t, []string{"PUSHV", "PUSHOP", "APPLY", "POPPAREN", "ANS", "KEEP", "OTHER", "END"},
		[]string{tk.TokenName(0), tk.TokenName(1), tk.TokenName(2), tk.TokenName(3), tk.TokenName(4), tk.TokenName(5), tk.TokenName(6), tk.TokenName(7)})
	require.Equal(t, tape.NumBranchingObservations, task.Observations(tk))
	require.Equal(t, ")·max>", tk.ObservationName(5*14+5+3+2))
	require.Equal(t, 5000, tk.Items(2, task.Training)+tk.Items(2, task.HeldOut))
	key := rng.NewKey(3)
	functions := 0
	for lv, l := range tk.Levels() {
		require.LessOrEqual(t, l.Budget, 256, l.Name)
		for _, sp := range []task.Split{task.Training, task.HeldOut, task.Transfer} {
			if tk.Items(lv, sp) == 0 {
				continue
			}
			for i := uint32(0); i < 100; i++ {
				in := tk.Draw(key, 1, i, rng.PurposeTask, lv, sp)
				require.NoError(t, task.Check(tk, &in))
				m := tk.items[lv][sp][in.Item]
				var cells [tape.MaxCells]tape.Cell
				got := unpackTape(&in, cells[:], 5)
				require.Len(t, got, len(m.Cells))
				var d []int32
				branches := false
				for j, c := range got {
					if m.Cells[j] == tape.Leaf {
						d = append(d, int32(c))
					} else {
						require.Equal(t, m.Cells[j], c)
						branches = branches || c.IsFunction()
					}
				}
				require.Equal(t, m.Eval(d), in.Data[dataTarget])
				prog := shuntingYardBranching(tk, &in)
				require.Len(t, prog, m.Shortest())
				o := tk.Score(&in, prog)
				require.True(t, o.Correct, "%s", m.Spelling)
				require.InDelta(t, 1.3, o.Reward, 1e-12)
				require.Equal(t, !branches, tk.Verify(&in, prog), m.Spelling)
				if branches {
					functions++
				}
			}
		}
	}
	require.Positive(t, functions)
	_, sub := task.Task(openTape(t, "")).(task.Subsetter)
	require.False(t, sub)
}

// The branching task's listed instances: Count of them per item, each a
// draw of its item (Check, its target), every subset met at 3 leaves, and
// Subsets is tape.Subsets on the instance's tape.
func TestTapeBranchingSubsets(t *testing.T) {
	tk := openBranching(t, "")
	require.Equal(t, tape.SubsetNames, tk.SubsetNames())
	for _, lv := range []int{1, 4} {
		for _, sp := range []task.Split{task.Training, task.HeldOut, task.Transfer} {
			ins := tk.Instances(lv, sp, 0)
			require.Len(t, ins, tk.Count(lv, sp))
			if tk.Items(lv, sp) == 0 {
				continue
			}
			var count [8]int
			for _, in := range ins {
				require.NoError(t, task.Check(tk, &in))
				var cells [tape.MaxCells]tape.Cell
				tp := unpackTape(&in, cells[:], 5)
				bits := tk.Subsets(&in)
				require.Equal(t, tape.Subsets(tp), bits)
				require.NotZero(t, bits, "every instance has a depth")
				for i := range count {
					if bits&(1<<i) != 0 {
						count[i]++
					}
				}
			}
			if lv == 1 && sp == task.Training {
				for i, name := range tape.SubsetNames[:5] {
					require.Positive(t, count[i], name)
				}
			}
		}
	}
	require.Len(t, tk.Instances(1, task.Training, 7), 7)
}

// head=context: the expression is shown as the context (cell kinds after
// END, never a digit's value) and read token by token (the tuning's
// Context), the observation is the operator stack's top only, and the
// machine is the strict one: the shunting-yard table, given the full
// observation by a machine of its own, solves every draw on the task.
func TestTapeHeadContext(t *testing.T) {
	tk := openTape(t, "partial_credit=0.3; head=context; longer=6,7")
	require.Equal(t, 12, tk.Vocab())
	require.Equal(t, []int32{5, 6, 7, 8, 9, 10, 11}, tk.NotActions())
	require.Equal(t, "x", tk.TokenName(6))
	require.Equal(t, ")", tk.TokenName(11))
	require.Equal(t, "[?]", tk.TokenName(12))
	require.Equal(t, tape.HeadlessObservations, task.Observations(tk))
	require.Equal(t, "read", tk.DefaultTuning().Context)
	require.Empty(t, openTape(t, "").DefaultTuning().Context)
	key := rng.NewKey(4)
	for lv, l := range tk.Levels() {
		require.Positive(t, l.Context)
		for _, sp := range []task.Split{task.Training, task.HeldOut, task.Transfer} {
			if tk.Items(lv, sp) == 0 {
				continue
			}
			for i := uint32(0); i < 50; i++ {
				in := tk.Draw(key, 1, i, rng.PurposeTask, lv, sp)
				require.NoError(t, task.Check(tk, &in))
				var cells [tape.MaxCells]tape.Cell
				tp := unpackTape(&in, cells[:], 4)
				require.Equal(t, int32(len(tp)), in.NContext)
				require.LessOrEqual(t, int(in.NContext), l.Context)
				for j, c := range tp {
					require.Equal(t, strings.Trim(c.String(), "0123456789") == "", tk.TokenName(in.Context[j]) == "x")
					if !c.IsDigit() {
						require.Equal(t, c.String(), tk.TokenName(in.Context[j]))
					}
				}
				var full tape.Machine
				full.Reset(tp)
				e := tk.NewEnv(1)
				obs := e.Reset(0, &in)
				out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
				for !out.Done[0] {
					require.Less(t, obs, int32(tape.HeadlessObservations))
					a := tape.ShuntingYard(full.Observe())
					full.Step(a)
					e.Step([]int32{a}, out)
					obs = out.Obs[0]
				}
				require.True(t, e.Correct(0))
			}
		}
	}
}

// head=context opens with the default longer sizes: every size's
// expressions fit a context (task.MaxContext), up to tape.MaxLeaves, whose
// longest is drawn, checked, solved and explained like any other.
func TestTapeHeadContextOfEverySize(t *testing.T) {
	tk := openTape(t, "partial_credit=0.3; head=context")
	levels := tk.Levels()
	last := len(levels) - 1
	require.Equal(t, tape.MaxLeaves, tk.sizes[last])
	longest := levels[last].Context
	require.Equal(t, longest, task.LongestContext(tk))
	require.LessOrEqual(t, longest, task.MaxContext)
	key := rng.NewKey(5)
	for item := range tk.Items(last, task.Transfer) {
		in := tk.DrawItem(key, 0, 0, rng.PurposeEval, last, task.Transfer, item)
		if int(in.NContext) < longest {
			continue
		}
		require.NoError(t, task.Check(tk, &in))
		var full tape.Machine // the full observation, as TestTapeHeadContext's
		var cells [tape.MaxCells]tape.Cell
		full.Reset(unpackTape(&in, cells[:], 4))
		var prog []int32
		for len(prog) < int(in.Budget) && (len(prog) == 0 || prog[len(prog)-1] != tape.ANS) {
			a := tape.ShuntingYard(full.Observe())
			full.Step(a)
			prog = append(prog, a)
		}
		require.True(t, tk.Score(&in, prog).Correct)
		require.True(t, tk.Explain(&in, prog).Correct)
		return
	}
	t.Fatalf("no %d-leaf item shows the level's %d tokens", tape.MaxLeaves, longest)
}

// TestTapeSpecSaysWhatWasWritten: leaves=0 and leaves=0..0 are refused as
// written (not taken as the default 2..5), and trained sizes the default
// longer sizes do not lie above are blamed on leaves, the option written,
// saying that longer is the default and how to change it.
func TestTapeSpecSaysWhatWasWritten(t *testing.T) {
	for _, spec := range []string{"leaves=0", "leaves=0..0", "leaves=0..5", "leaves=-1..3"} {
		_, err := task.Open("tape", spec)
		var se *task.SpecError
		require.ErrorAs(t, err, &se, spec)
		require.Equal(t, "leaves", se.Key, spec)
		require.Contains(t, err.Error(), "got "+strings.TrimPrefix(spec, "leaves="), spec)
	}
	for spec, hi := range map[string]string{"leaves=2..32": "32", "leaves=2..7": "7", "leaves=9": "9"} {
		_, err := task.Open("tape", spec)
		var se *task.SpecError
		require.ErrorAs(t, err, &se, spec)
		require.Equal(t, "leaves", se.Key, "%s: %v", spec, err)
		require.Contains(t, err.Error(), "the default longer=6,8,12,16,32", spec)
		require.Contains(t, err.Error(), "above "+hi, spec)
		require.Contains(t, err.Error(), "longer=none", spec)
	}
	// A longer written is blamed as before.
	_, err := task.Open("tape", "leaves=2..7; longer=6")
	var se *task.SpecError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "longer", se.Key)
}
