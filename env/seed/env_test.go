package seed

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// TestGoldenEnv replays every case of env.jsonl: reward bits and steps exact.
func TestGoldenEnv(t *testing.T) {
	cases, err := golden.LoadEnv(golden.Dir())
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for i, c := range cases {
		out := Run(Task{Level: c.Level, Digits: c.Digits}, c.Actions)
		require.Equalf(t, math.Float64bits(c.Reward), math.Float64bits(out.Reward),
			"case %d %+v: reward %v want %v", i, c, out.Reward, c.Reward)
		require.Equalf(t, c.Steps, out.Steps, "case %d %+v", i, c)
		// Trace must agree with Run and record one step per consumed token.
		o2, tr := Trace(Task{Level: c.Level, Digits: c.Digits}, c.Actions, nil)
		require.Equal(t, out, o2)
		require.Len(t, tr, out.Steps)
	}
}

func TestSolutionsAreCorrect(t *testing.T) {
	progs := [3][]int32{{MUL, ANS}, {MUL, ADD, ANS}, {MUL, ADD, SUB, ANS}}
	for level := 0; level < NumLevels; level++ {
		for a := 0; a < 10; a++ {
			for d := 0; d < 10; d++ {
				tk := Task{Level: level, Digits: [5]int{a, 7, 3, d, 4}}
				o := Run(tk, progs[level])
				require.True(t, o.Correct, "level %d %v", level, tk)
				require.GreaterOrEqual(t, o.Reward, 1.0)
				require.True(t, o.Answered)
			}
		}
	}
	// level 0: MUL ANS answers a*b: 1 + 0.2*0.25 (c≠0 so a*b+c differs).
	o := Run(Task{Level: 0, Digits: [5]int{2, 3, 1, 0, 0}}, []int32{MUL, ANS})
	require.Equal(t, 1.0+0.2*0.25, o.Reward)
	// no ANS: nothing, and max 7 steps.
	o = Run(Task{Level: 1}, []int32{MUL, MUL, MUL, MUL, MUL, MUL, MUL, MUL, ANS})
	require.Equal(t, Outcome{Steps: 7}, o)
}

func TestTargets(t *testing.T) {
	tk := Task{Level: 2, Digits: [5]int{3, 4, 5, 6, 7}}
	require.Equal(t, 3*4+5-6, tk.RewardedTarget())
	require.Equal(t, 3*4+5-6*7, tk.SampleTarget())
	buf := make([]int32, 8)
	require.Equal(t, 6, tk.Context(buf))
	require.Equal(t, []int32{3, 4, 5, 6, 7, CTX}, buf[:6])
}

func TestDrawTaskDeterministic(t *testing.T) {
	k := rng.NewKey(5)
	a := DrawTask(k, 1, 2, rng.PurposeTask, 1)
	require.Equal(t, a, DrawTask(k, 1, 2, rng.PurposeTask, 1))
	require.NotEqual(t, a, DrawTask(k, 1, 3, rng.PurposeTask, 1))
	for _, d := range a.Digits {
		require.True(t, d >= 0 && d <= 9)
	}
}

func TestRunAllocatesNothing(t *testing.T) {
	tk := Task{Level: 2, Digits: [5]int{3, 4, 5, 6, 7}}
	prog := []int32{MUL, ADD, STO, RCL, SUB, ANS}
	require.Zero(t, testing.AllocsPerRun(100, func() { Run(tk, prog) }))
}

func FuzzRun(f *testing.F) {
	f.Add(uint8(0), []byte{11, 14}, uint32(12345))
	f.Fuzz(func(t *testing.T, level uint8, prog []byte, digits uint32) {
		tk := Task{Level: int(level % 3)}
		for i := range tk.Digits {
			tk.Digits[i] = int(digits % 10)
			digits /= 10
		}
		acts := make([]int32, len(prog))
		for i, p := range prog {
			acts[i] = int32(p % Vocab)
		}
		o := Run(tk, acts)
		require.LessOrEqual(t, o.Steps, MaxSteps)
		require.Equal(t, o.Correct, o.Reward >= 1)
		require.True(t, o.Reward >= 0 && o.Reward < 1.4)
	})
}
