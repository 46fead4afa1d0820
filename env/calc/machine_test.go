package calc

import (
	"testing"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/stretchr/testify/require"
)

// Every tool does what its name says, on a machine holding v=7, m=3, with
// the next operand 4 (digits 2, 4, 9; p=1).
func TestToolsDoWhatTheirNamesSay(t *testing.T) {
	digits := [MaxVars]int32{2, 4, 9}
	cases := []struct {
		tok  int32
		want Machine
	}{
		{LOAD, Machine{V: 4, M: 3, P: 2}},
		{ADD, Machine{V: 11, M: 3, P: 2}},
		{SUB, Machine{V: 3, M: 3, P: 2}},
		{MUL, Machine{V: 28, M: 3, P: 2}},
		{STO, Machine{V: 7, M: 7, P: 1}},
		{MADD, Machine{V: 10, M: 3, P: 1}},
		{MSUB, Machine{V: -4, M: 3, P: 1}},
		{ANS, Machine{V: 7, M: 3, P: 1}},
		{CTX, Machine{V: 7, M: 3, P: 1}},
		{5, Machine{V: 7, M: 3, P: 1}},
	}
	for _, c := range cases {
		m := Machine{V: 7, M: 3, P: 1}
		m.Apply(OpOf(c.tok), &digits, 3)
		require.Equal(t, c.want, m, TokenName(c.tok))
	}
}

// With every operand consumed, the operand tools do nothing; the others still work.
func TestOperandToolsStopAtTheEnd(t *testing.T) {
	digits := [MaxVars]int32{2, 4, 9, 5}
	for _, tok := range []int32{LOAD, ADD, SUB, MUL} {
		m := Machine{V: 7, M: 3, P: 3}
		m.Apply(Ops[tok], &digits, 3)
		require.Equal(t, Machine{V: 7, M: 3, P: 3}, m, TokenName(tok))
	}
	m := Machine{V: 7, M: 3, P: 3}
	m.Apply(Ops[MADD], &digits, 3)
	require.Equal(t, int64(10), m.V)
}

func TestVocabulary(t *testing.T) {
	require.Equal(t, int32(Vocab-1), int32(ANS), "ANS ends the vocabulary")
	names := map[string]bool{}
	for tok := int32(0); tok < Vocab; tok++ {
		require.False(t, names[TokenName(tok)], "duplicate name %s", TokenName(tok))
		names[TokenName(tok)] = true
		if tok < FirstTool {
			require.Equal(t, interp.KindNone, Ops[tok].Kind, "token %d is not a tool", tok)
		} else {
			require.NotEqual(t, interp.KindNone, Ops[tok].Kind, "tool %s has no op", TokenName(tok))
		}
	}
	require.Equal(t, "[NEG]", TokenName(Vocab), "NEG follows ANS")
	require.Equal(t, interp.Op{}, OpOf(-1))
	require.Equal(t, "[LOAD] [MUL] [ANS]", ProgramString([]int32{LOAD, MUL, ANS}))
}

// NEG and SWAP do what their names say on the branching machine, and nothing
// on the 19-token one, whose table is unchanged.
func TestBranchTools(t *testing.T) {
	digits := [MaxVars]int32{2, 4, 9}
	m := Machine{V: 7, M: 3, P: 1}
	m.Apply(BranchOps[NEG], &digits, 3)
	require.Equal(t, Machine{V: -7, M: 3, P: 1}, m)
	m.Apply(BranchOps[SWAP], &digits, 3)
	require.Equal(t, Machine{V: 3, M: -7, P: 1}, m)
	m.Apply(OpIn(BranchOps[:], SWAP), &digits, 3)
	require.Equal(t, Machine{V: -7, M: 3, P: 1}, m)
	for _, tok := range []int32{NEG, SWAP} {
		require.Equal(t, interp.Op{}, OpOf(tok), "the 19-token machine has no %s", TokenName(tok))
	}
	require.Equal(t, Ops[:], BranchOps[:Vocab], "the 19-token table is the branching table's prefix")
	require.Equal(t, []interp.Op{
		{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
		{Kind: interp.KindSet, Src: interp.SrcOperand, Dst: interp.RegV}, {Kind: interp.KindAdd, Src: interp.SrcOperand, Dst: interp.RegV}, {Kind: interp.KindSub, Src: interp.SrcOperand, Dst: interp.RegV}, {Kind: interp.KindMul, Src: interp.SrcOperand, Dst: interp.RegV},
		{Kind: interp.KindSet, Src: interp.SrcV, Dst: interp.RegM}, {Kind: interp.KindAdd, Src: interp.SrcM, Dst: interp.RegV}, {Kind: interp.KindSubFrom, Src: interp.SrcM, Dst: interp.RegV}, {Kind: interp.KindAnswer, Src: interp.SrcNone, Dst: interp.RegV},
	}, Ops[:], "the 19-token table, as the kernels and hashes know it")
	require.Equal(t, interp.OpKind(6), interp.KindAnswer)
	require.Equal(t, interp.OpKind(7), interp.KindNeg)
	require.Equal(t, interp.OpKind(8), interp.KindSwap)
	require.Equal(t, "[NEG]", TokenName(NEG))
	require.Equal(t, "[SWAP]", TokenName(SWAP))
	require.Equal(t, "[?]", TokenName(BranchVocab))
}

// The observation is the signs of v and v−m, 3·(sgn v+1) + sgn(v−m)+1.
func TestObserve(t *testing.T) {
	cases := []struct {
		v, m int64
		want int32
		name string
	}{
		{0, 0, 4, "v=0 v=m"}, {-3, 5, 0, "v<0 v<m"}, {-3, -3, 1, "v<0 v=m"}, {-3, -9, 2, "v<0 v>m"},
		{0, 1, 3, "v=0 v<m"}, {0, -1, 5, "v=0 v>m"}, {2, 9, 6, "v>0 v<m"}, {2, 2, 7, "v>0 v=m"}, {9, 2, 8, "v>0 v>m"},
	}
	seen := map[int32]bool{}
	for _, c := range cases {
		m := Machine{V: c.v, M: c.m}
		require.Equal(t, c.want, m.Observe(), "v=%d m=%d", c.v, c.m)
		require.Equal(t, c.name, ObservationName(c.want))
		seen[c.want] = true
	}
	require.Len(t, seen, NumObservations)
	var start Machine
	require.Equal(t, int32(StartObservation), start.Observe())
	require.Equal(t, "?", ObservationName(NumObservations))
	require.Equal(t, NumObservations, interp.ObserveSigns.Observations())
	require.Equal(t, 0, interp.ObserveNone.Observations())
}

// An episode observes the machine after every token, and the final machine
// after the end; stepping and observing allocate nothing.
func TestEpisodeObserves(t *testing.T) {
	in := Instance{Vars: 2, Budget: 5, Digits: [MaxVars]int32{3, 5}, Target: 2}
	var e Episode
	e.ResetOps(&in, 0, BranchOps[:])
	require.Equal(t, int32(StartObservation), e.Observation())
	var obs []int32
	for _, tok := range []int32{LOAD, SUB, NEG, ANS, NEG} {
		e.Step(tok)
		obs = append(obs, e.Observation())
	}
	// v=3 (m=0): v>0 v>m; v=−2: v<0 v<m; v=2: v>0 v>m; then final.
	require.Equal(t, []int32{8, 0, 8, 8, 8}, obs)
	require.True(t, e.Outcome().Correct)
	allocs := testing.AllocsPerRun(100, func() {
		e.ResetOps(&in, 0, BranchOps[:])
		for _, tok := range []int32{LOAD, SUB, NEG, SWAP, ANS} {
			e.Step(tok)
			_ = e.Observation()
		}
	})
	require.Zero(t, allocs)
	// On the 19-token machine NEG does nothing.
	o := Run(in, []int32{LOAD, SUB, NEG, ANS}, 0)
	require.Equal(t, int64(-2), o.Answer)
	o = RunOps(in, []int32{LOAD, SUB, NEG, ANS}, 0, BranchOps[:])
	require.Equal(t, int64(2), o.Answer)
}
