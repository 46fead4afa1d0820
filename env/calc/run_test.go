package calc

import (
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// Every level's shortest program is correct on every draw, and scores 1 plus
// the partial credit it earns on the way.
func TestShortestProgramsSolveEveryDraw(t *testing.T) {
	ls := DefaultLevels()
	for lv := range ls {
		for ep := uint32(0); ep < 500; ep++ {
			for _, held := range []bool{false, true} {
				in := ls.Draw(rng.NewKey(9), 0, ep, rng.PurposeTask, lv, held)
				o := Run(in, ls[lv].Shortest, 0)
				require.True(t, o.Correct, "level %d %v", lv, in.Digits)
				require.True(t, o.Answered)
				require.Equal(t, 1.0, o.Reward)
				require.Equal(t, in.Target, o.Answer)
				require.Equal(t, int32(len(ls[lv].Shortest)), o.Steps)
			}
		}
	}
}

func TestPartialCredit(t *testing.T) {
	ls := DefaultLevels()
	// (a*b+c)-(d*e) on 2,3,4,5,6: inner values a*b=6, a*b+c=10, d*e=30; target −20.
	in := ls.Instance(4, [MaxVars]int32{2, 3, 4, 5, 6})
	require.Equal(t, int32(3), in.NInner)
	third := func(k int) float64 { return float64(k) / float64(3) } // at run time, as Run computes it
	credit := 0.3
	o := Run(in, []int32{LOAD, MUL, ADD, ANS}, credit) // holds 6 and 10, answers 10
	require.False(t, o.Correct)
	require.Equal(t, int32(2), o.InnerHeld)
	require.Equal(t, credit*third(2), o.Reward)
	o = Run(in, []int32{LOAD, MUL, ADD, STO, LOAD, MUL, MSUB, ANS}, credit)
	require.True(t, o.Correct)
	require.Equal(t, 1+credit*third(3), o.Reward)
	// No ANS: no answer, and no partial credit either (v held 6).
	o = Run(in, []int32{LOAD, MUL}, credit)
	require.Equal(t, Outcome{Reward: 0, Steps: 2, InnerHeld: 1}, o)
	// Values held after the first ANS do not count.
	o = Run(in, []int32{ANS, LOAD, MUL}, 0.3)
	require.Equal(t, Outcome{Answered: true, Steps: 1}, o)
	// a*b has no inner values: no partial credit at all.
	in0 := ls.Instance(0, [MaxVars]int32{2, 3})
	require.Equal(t, 1.0, Run(in0, []int32{LOAD, MUL, ANS}, 0.3).Reward)
	// Equal inner values: holding one credits both (a*b = c*d = 6 in a*b+c*d).
	in3 := ls.Instance(3, [MaxVars]int32{2, 3, 1, 6})
	o = Run(in3, []int32{LOAD, MUL, ANS}, 1)
	require.Equal(t, int32(2), o.InnerHeld)
	require.Equal(t, 1.0, o.Reward)
}

func TestBudgetCutsTheProgram(t *testing.T) {
	ls := DefaultLevels()
	in := ls.Instance(0, [MaxVars]int32{2, 3}) // budget 5
	o := Run(in, []int32{CTX, CTX, LOAD, MUL, CTX, ANS}, 0)
	require.Equal(t, Outcome{Steps: 5}, o, "the ANS is the sixth token")
	o = Run(in, []int32{CTX, LOAD, MUL, CTX, ANS}, 0)
	require.True(t, o.Correct)
	// Out-of-vocabulary tokens do nothing.
	o = Run(in, []int32{-3, LOAD, 99, MUL, ANS}, 0)
	require.True(t, o.Correct)
}

func TestTrace(t *testing.T) {
	ls := DefaultLevels()
	in := ls.Instance(3, [MaxVars]int32{2, 3, 4, 5})
	prog := []int32{LOAD, MUL, STO, LOAD, MUL, MADD, ANS, LOAD}
	o, tr := Trace(in, prog, 0.5, nil)
	require.Equal(t, Run(in, prog, 0.5), o)
	require.Len(t, tr, 7)
	require.Equal(t, "[LOAD] v=2 m=0 (operand a=2)", tr[0].String())
	require.Equal(t, "[MUL]  v=6 m=0 (operand b=3)", tr[1].String())
	require.Equal(t, "[STO]  v=6 m=6", tr[2].String())
	require.Equal(t, "[M+V]  v=26 m=6", tr[5].String())
	require.Equal(t, "[ANS]", tr[6].Name())
	require.Equal(t, int64(26), o.Answer)
	require.True(t, o.Correct)
}

func TestRunAllocatesNothing(t *testing.T) {
	ls := DefaultLevels()
	in := ls.Draw(rng.NewKey(1), 0, 0, rng.PurposeTask, 5, false)
	prog := ls[5].Shortest
	require.Zero(t, testing.AllocsPerRun(1000, func() { Run(in, prog, 0.3) }))
}

func FuzzRun(f *testing.F) {
	f.Add(uint8(5), []byte{11, 14, 15, 11, 14, 16, 15, 11, 14, 17, 18}, uint32(123456), 0.3)
	f.Fuzz(func(t *testing.T, level uint8, prog []byte, digits uint32, credit float64) {
		ls := DefaultLevels()
		lv := int(level) % len(ls)
		var d [MaxVars]int32
		for i := range d {
			d[i] = int32(digits % 10)
			digits /= 10
		}
		in := ls.Instance(lv, d)
		toks := make([]int32, len(prog))
		for i, p := range prog {
			toks[i] = int32(p%(Vocab+2)) - 1 // a few outside the vocabulary too
		}
		if credit != credit || credit < 0 || credit > 1 {
			credit = 0.5
		}
		o := Run(in, toks, credit)
		require.LessOrEqual(t, o.Steps, in.Budget)
		require.Equal(t, o.Correct, o.Answered && o.Answer == in.Target)
		require.GreaterOrEqual(t, o.Reward, 0.0)
		require.LessOrEqual(t, o.Reward, 1+credit)
		if o.Correct {
			require.GreaterOrEqual(t, o.Reward, 1.0)
		} else {
			require.LessOrEqual(t, o.Reward, credit)
		}
	})
}

// BenchmarkRun scores the last default level's shortest program (11 tokens)
// on drawn instances: ns/op is ns per episode.
func BenchmarkRun(b *testing.B) {
	ls := DefaultLevels()
	var ins [256]Instance
	for i := range ins {
		ins[i] = ls.Draw(rng.NewKey(1), 0, uint32(i), rng.PurposeTask, 5, false)
	}
	prog := ls[5].Shortest
	i := 0
	for b.Loop() {
		Run(ins[i&255], prog, 0.3)
		i++
	}
}

// BenchmarkDraw draws instances of the last default level (rejection included).
func BenchmarkDraw(b *testing.B) {
	ls := DefaultLevels()
	k := rng.NewKey(1)
	ep := uint32(0)
	for b.Loop() {
		ls.Draw(k, 0, ep, rng.PurposeEval, 5, true)
		ep++
	}
}
