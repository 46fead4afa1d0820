//go:build cgo

package devfn

import (
	"testing"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/env/tape"
	"github.com/simdrl/simdrl/env/taperules"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/stretchr/testify/require"
)

// TestClampsIndicesFromTaskData: what the kernels index with a field of a
// task's record stays inside the table it indexes, whatever the record
// holds (the host refuses such records first: gpu's pack and scorerOf):
// the context's length within the words the record holds, its tokens in
// the vocabulary, the level in the model's level embeddings, the
// observation in the task's observations, and the operands the
// calculator reads within the record's digits.
func TestClampsIndicesFromTaskData(t *testing.T) {
	rec := make([]int32, RecordWords)
	for _, c := range []struct{ nshown, vars, want int32 }{
		{1000, 0, record.MaxShown}, {record.MaxShown, 0, record.MaxShown}, {0, 100, interp.MaxDigits},
		{0, -5, 0}, {-3, 3, 3}, {0, interp.MaxDigits, interp.MaxDigits},
	} {
		rec[record.NShown], rec[record.Vars] = c.nshown, c.vars
		require.Len(t, Context(rec), int(c.want), "nshown %d vars %d", c.nshown, c.vars)
	}

	const V = 19
	rec[record.NShown] = 3
	for tok, want := range map[int32]int{1000: V - 1, V: V - 1, -4: 0, 5: 5, 0: 0, V - 1: V - 1} {
		rec[record.Shown+1] = tok
		require.Equal(t, want, ContextToken(rec, 1, V), "token %d", tok)
	}
	rec[record.NShown] = 0
	rec[record.Vars], rec[record.Digits+2] = 4, 1<<20
	require.Equal(t, V-1, ContextToken(rec, 2, V), "a digit read as a token")

	// The rollout's copy of a record: its context's length and tokens
	// clamped in place, every other word as it was.
	for _, c := range []struct {
		nshown, vars int32
		at           int
		n            int32
	}{{1000, 3, record.Shown, record.MaxShown}, {0, 100, record.Digits, interp.MaxDigits}, {5, 100, record.Shown, 5}} {
		rec := make([]int32, RecordWords)
		for i := range rec {
			rec[i] = int32(i*7919) - 300
		}
		rec[record.NShown], rec[record.Vars] = c.nshown, c.vars
		got := RecordClamped(rec, V)
		require.Len(t, Context(got), int(c.n), "nshown %d vars %d", c.nshown, c.vars)
		for i := range rec {
			switch {
			case i >= c.at && i < c.at+int(c.n):
				require.Equal(t, int32(max(0, min(V-1, int(rec[i])))), got[i], "context word %d", i)
			case i == record.NShown && c.nshown > 0 || i == record.Vars && c.nshown <= 0:
				require.Equal(t, c.n, got[i], "the context's length")
			default:
				require.Equal(t, rec[i], got[i], "word %d", i)
			}
		}
	}

	for _, c := range []struct{ level, S, want int }{{7, 3, 2}, {-1, 3, 0}, {1, 3, 1}, {5, 1, 0}, {-9, 1, 0}} {
		require.Equal(t, c.want, Stage(c.level, c.S), "level %d of %d", c.level, c.S)
	}

	const O = tape.NumBranchingObservations
	for _, c := range []struct{ a, obs, want int }{{2, 307, 2*O + O - 1}, {2, -1, 2 * O}, {2, 10, 2*O + 10}, {0, O, O - 1}} {
		require.Equal(t, c.want, Input(c.a, O, c.obs), "token %d observed as %d", c.a, c.obs)
	}

	// A branching tape holding 25, no cell: the machine observes it outside
	// its 154 observations, and the input row stays in the token's.
	tp := make([]int32, RecordWords)
	tp[record.Data+2*taperules.DataNWords] = 1
	tp[record.Data+2*taperules.DataWords] = 25 | 31<<5 // cell 0 is 25, then the stop
	tp[record.Budget] = 4
	first, _, _, _ := TapeSteps(tp, []int32{-1}, taperules.Branching, 0, nil)
	require.GreaterOrEqual(t, int(first), O, "the machine observes the junk cell outside the vocabulary")
	require.Equal(t, 3*O+O-1, Input(3, O, int(first)))
}

// TestCalcReadsOperandsWithinTheRecord: a record that claims more operands
// than it holds digits (vars 100) gives the calculator its eight digits
// and no more: never the target's words that follow them.
func TestCalcReadsOperandsWithinTheRecord(t *testing.T) {
	rec := make([]int32, RecordWords)
	rec[record.Vars], rec[record.Budget], rec[record.Target] = 100, 30, interp.MaxDigits
	for j := range interp.MaxDigits {
		rec[record.Digits+j] = 1
	}
	ops := record.OpTable([]interp.Op{
		{Kind: interp.KindSet, Src: interp.SrcOperand}, {Kind: interp.KindAdd, Src: interp.SrcOperand}, {Kind: interp.KindAnswer},
	})
	prog := []int32{0}
	for range 15 {
		prog = append(prog, 1)
	}
	prog = append(prog, 2)
	reward, _, answered, correct := CalcRun(rec, ops, 0, prog)
	require.True(t, answered)
	require.True(t, correct, "v is the sum of the eight digits, %d", interp.MaxDigits)
	require.Equal(t, 1.0, reward)
}
