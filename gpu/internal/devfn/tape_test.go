//go:build cgo

package devfn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/env/tape"
	"github.com/simdrl/simdrl/env/taperules"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	_ "github.com/simdrl/simdrl/tasks/tapetask"
	"github.com/stretchr/testify/require"
)

// TestTapeLayout: tape.cuh's bounds, data layout and variant bits are
// env/tape's and the record's.
func TestTapeLayout(t *testing.T) {
	require.Equal(t, [10]int{tape.MaxCells, tape.MaxValues, tape.MaxOps, taperules.PackedWords, taperules.DataTarget, taperules.DataNWords,
		taperules.DataWords, record.Data, record.MaxData, 2048}, TapeLayout())
	require.Equal(t, [5]int{taperules.Loose, taperules.Blind, taperules.Unstacked, taperules.Branching, taperules.Headless}, TapeVariantBits())
	require.LessOrEqual(t, taperules.DataWords+taperules.PackedWords, record.MaxData, "a packed tape fits the record")
}

// tapeSpecs are the tape task's machines: strict, every comparison's, and
// partial credit on and off.
var tapeSpecs = []string{"", "partial_credit=0.3", "branching=on; partial_credit=0.3", "branching=on", "rules=loose; partial_credit=0.3",
	"pending=h; partial_credit=0.3", "observe=off; partial_credit=0.3", "head=context; longer=6,7; partial_credit=0.3"}

// TestTapeSteps: tape.cuh's machine, reset from the record the GPU uploads
// (record.PackData) and stepped on the tools the GPU's op table holds,
// gives the task's Env (the CPU's) step for step: the first observation,
// every reward bit for bit, every done flag and observation, and the
// answer's correctness, on every size of every machine, with programs
// that solve (the shunting-yard tables, with and without slips), random
// ones over the whole vocabulary, and tokens outside it.
func TestTapeSteps(t *testing.T) {
	key := rng.NewKey(38)
	for _, spec := range tapeSpecs {
		tk, err := task.Open("tape", spec)
		require.NoError(t, err)
		rules := tk.(taperules.Ruled).TapeRules()
		tools := make([]int32, len(rules.Tools))
		copy(tools, rules.Tools)
		bits := int(rules.Variant)
		env := task.NewEnv(tk, 1)
		r := rand.New(rand.NewPCG(uint64(len(spec)), 38))
		solved := 0
		for level := range tk.Levels() {
			for ep := uint32(0); ep < 24; ep++ {
				in := tk.Draw(key, uint32(level), ep, rng.PurposeEval, level, task.Transfer)
				rec := make([]int32, record.Words)
				record.PackData(rec, &in)
				T := int(in.Budget) + 3
				kind := ep % 4 // 0, 1: the table (1 with slips), 2: random tokens, 3: random with out-of-range ones
				wantFirst := env.Reset(0, &in)
				var actions []int32
				var want []Step
				obs := wantFirst
				tr := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
				for s := 0; s < T; s++ {
					var a int32
					switch {
					case kind <= 1:
						a = tokenOf(rules, tableTool(rules.Variant, obs))
						if kind == 1 && r.IntN(6) == 0 {
							a = int32(r.IntN(tk.Vocab()))
						}
					case kind == 2:
						a = int32(r.IntN(tk.Vocab()))
					default:
						a = int32(r.IntN(tk.Vocab()+4)) - 2
					}
					actions = append(actions, a)
					if a < 0 || int(a) >= tk.Vocab() {
						// The CPU's Env takes only the task's tokens; a token outside
						// is no tool on both (the kernel's table lookup), stepped as
						// the task's own non-tool token would be.
						a = -1
					}
					env.Step([]int32{a}, tr)
					obs = tr.Obs[0]
					want = append(want, Step{Reward: tr.Reward[0], Done: tr.Done[0], Obs: tr.Obs[0]})
				}
				first, got, _, correct := TapeSteps(rec, tools, bits, rules.PartialCredit, actions)
				require.Equal(t, wantFirst, first, "spec %q level %d ep %d", spec, level, ep)
				require.Len(t, got, len(want))
				for s := range want {
					require.Equalf(t, math.Float64bits(want[s].Reward), math.Float64bits(got[s].Reward), "spec %q level %d ep %d step %d reward %v vs %v", spec, level, ep, s, want[s].Reward, got[s].Reward)
					require.Equalf(t, want[s].Done, got[s].Done, "spec %q level %d ep %d step %d", spec, level, ep, s)
					require.Equalf(t, want[s].Obs, got[s].Obs, "spec %q level %d ep %d step %d", spec, level, ep, s)
				}
				require.Equal(t, env.Correct(0), correct, "spec %q level %d ep %d", spec, level, ep)
				if correct {
					solved++
				}
			}
		}
		if rules.Variant&(taperules.Unstacked|taperules.Blind|taperules.Headless) == 0 {
			require.Positive(t, solved, "spec %q: the table solved no episode, so no answer was compared", spec)
		}
	}
}

// tableTool is the shunting-yard table's tool for obs on machine v
// (ShuntingYard, or ShuntingYardBranching); the comparisons' machines get
// the strict table's choice where its observation means the same.
func tableTool(v uint32, obs int32) tape.Tool {
	if v&taperules.Branching != 0 {
		return tape.ShuntingYardBranching(obs)
	}
	return tape.ShuntingYard(obs)
}

// tokenOf is the token of tool (the first token whose tool it is), or the
// tool itself when no token has it.
func tokenOf(r taperules.Rules, tool tape.Tool) int32 {
	for tok, t := range r.Tools {
		if t == tool {
			return int32(tok)
		}
	}
	return tool
}
