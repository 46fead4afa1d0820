package tape

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// parse is a tape spelled with digits, + - * ( ), and A( M( N( , for
// abs( max( min( and the comma (test input only).
func parse(t *testing.T, s string) []Cell {
	t.Helper()
	var out []Cell
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			out = append(out, Cell(r-'0'))
		case r == '(' && len(out) > 0 && out[len(out)-1].IsFunction():
			// A( is one cell
		default:
			i := map[rune]Cell{'+': Plus, '-': Minus, '*': Times, '(': Open, ')': Close, 'A': Abs, 'M': Max, 'N': Min, ',': Comma}
			c, ok := i[r]
			require.True(t, ok, "%q", r)
			out = append(out, c)
		}
	}
	return out
}

// step runs tool on m, requiring it to be valid or not, and that an
// invalid tool leaves the machine exactly as it was.
func step(t *testing.T, m *Machine, tool Tool, valid bool) {
	t.Helper()
	before := *m
	require.Equal(t, valid, m.Step(tool), "%s at head %d", ToolName(tool), m.Head)
	if !valid {
		require.Equal(t, before, *m, "an invalid %s changes nothing", ToolName(tool))
	}
}

// Every tool on 2*(3-1): where it is valid, what it does, and that every
// other tool is a no-op there.
func TestMachineToolsOneByOne(t *testing.T) {
	var m Machine
	m.Reset(parse(t, "2*(3-1)"))
	require.Equal(t, ObservationName(m.Observe()), "d·")
	const none Tool = 99
	plan := []struct {
		tool      Tool
		obs       string // after the step
		head      int
		alsoValid Tool // another tool valid before the step (none: none)
	}{
		{PUSHV, "*·", 1, none}, {PUSHOP, "(·*", 2, none}, {PUSHOP, "d·(", 3, none}, {PUSHV, "-·(", 4, none}, {PUSHOP, "d·-", 5, none},
		{PUSHV, ")·-", 6, APPLY}, // APPLY would compute 2−3: valid, though no subtree
		{APPLY, ")·(", 6, none}, {POPPAREN, "$·*", 7, none}, {APPLY, "$·", 7, none}, {ANS, "$·", 7, none},
	}
	for _, p := range plan {
		for other := Tool(-1); other <= NumTools; other++ {
			if other != p.tool {
				require.Equal(t, other == p.alsoValid, m.Valid(other), "%s at head %d", ToolName(other), m.Head)
				if other != p.alsoValid {
					step(t, &m, other, false)
				}
			}
		}
		step(t, &m, p.tool, true)
		require.Equal(t, p.obs, ObservationName(m.Observe()), "after %s", ToolName(p.tool))
		require.Equal(t, p.head, m.Head)
	}
	require.True(t, m.Answered)
	require.Equal(t, int64(4), m.Value)
	require.Equal(t, 2, m.Applied, "both operators applied to their own subtrees")
	step(t, &m, ANS, false) // a second answer changes nothing
}

// Strict consumption: no tool moves the head past a token without consuming
// it as what it is, and a ")" is passed only by matching its "(".
func TestMachineConsumesEveryTokenOnce(t *testing.T) {
	var m Machine
	m.Reset(parse(t, "(1+2)"))
	step(t, &m, PUSHV, false)  // "(" is no digit
	step(t, &m, PUSHOP, true)  // (
	step(t, &m, PUSHOP, false) // 1 is no operator
	step(t, &m, PUSHV, true)   // 1
	step(t, &m, PUSHV, false)  // + is no digit
	step(t, &m, PUSHOP, true)  // +
	step(t, &m, PUSHV, true)   // 2
	step(t, &m, POPPAREN, false)
	step(t, &m, ANS, false) // the head is not at the end
	step(t, &m, APPLY, true)
	step(t, &m, APPLY, false) // "(" is no operator
	step(t, &m, POPPAREN, true)
	step(t, &m, POPPAREN, false) // nothing to match at the end
	step(t, &m, ANS, true)
	require.Equal(t, int64(3), m.Value)
}

// APPLY needs two values; ANS needs exactly one, an empty operator stack
// and the head at the end.
func TestMachineApplyAndAnswerNeedTheirOperands(t *testing.T) {
	var m Machine
	m.Reset(parse(t, "7-5"))
	step(t, &m, PUSHV, true)
	step(t, &m, PUSHOP, true)
	step(t, &m, APPLY, false) // one value only
	step(t, &m, PUSHV, true)
	step(t, &m, ANS, false) // an operator pending, two values
	step(t, &m, APPLY, true)
	v, ok := m.Top()
	require.True(t, ok)
	require.Equal(t, int64(2), v, "left − right, the right operand on top")
	step(t, &m, ANS, true)
}

// The stacks' bounds: the value stack takes MaxValues values and the
// operator stack MaxOps entries; one more push is invalid.
func TestMachineStackBounds(t *testing.T) {
	var m Machine
	digits := make([]Cell, MaxValues+1)
	m.Reset(digits)
	for range MaxValues {
		step(t, &m, PUSHV, true)
	}
	step(t, &m, PUSHV, false)
	nv, _ := m.Depths()
	require.Equal(t, MaxValues, nv)

	opens := make([]Cell, MaxOps+1)
	for i := range opens {
		opens[i] = Open
	}
	m.Reset(opens)
	for range MaxOps {
		step(t, &m, PUSHOP, true)
	}
	step(t, &m, PUSHOP, false)
	_, no := m.Depths()
	require.Equal(t, MaxOps, no)
}

// An APPLY that combines values other than its operator's two subtrees
// computes something, but is no correct application: 1+2*3 applied in
// reading order answers 9, with one of its two operators right.
func TestMachineCountsOnlyCorrectApplications(t *testing.T) {
	var e Episode
	e.Reset(parse(t, "1+2*3"), 7, 20, 0.5)
	for _, tool := range []Tool{PUSHV, PUSHOP, PUSHV, APPLY, PUSHOP, PUSHV, APPLY, ANS} {
		e.Step(tool)
	}
	require.True(t, e.Done())
	require.False(t, e.Correct())
	require.Equal(t, int64(9), e.Machine().Value)
	require.Equal(t, 0, e.Machine().Applied, "(1+2) is no subtree of 1+2*3, so neither is (1+2)*3")
	require.Equal(t, 0.0, e.Reward())

	e.Reset(parse(t, "1+2*3"), 7, 20, 0.5)
	var got float64
	for _, tool := range []Tool{PUSHV, PUSHOP, PUSHV, PUSHOP, PUSHV, APPLY, APPLY, ANS} {
		got += e.Step(tool)
	}
	require.True(t, e.Correct())
	require.Equal(t, 1.5, got, "1 for the answer plus the whole credit, paid once")
}

// The budget ends an episode that never answers, paying the partial credit
// then; steps after the end earn nothing and change nothing.
func TestEpisodeEndsAtItsBudget(t *testing.T) {
	var e Episode
	e.Reset(parse(t, "4*5+6"), 26, 6, 0.3)
	rewards := []float64{}
	for _, tool := range []Tool{PUSHV, PUSHOP, PUSHV, APPLY, PUSHOP, PUSHV, ANS} {
		rewards = append(rewards, e.Step(tool))
	}
	require.Equal(t, []float64{0, 0, 0, 0, 0, 0.3 * 1 / 2, 0}, rewards, "4*5 applied, + pending at the budget's end")
	require.True(t, e.Done())
	require.False(t, e.Correct())
}

// The first ANS ends the episode even when it is invalid (the task's answer
// token ends every program), answering nothing: only the credit for the
// operators applied so far is paid.
func TestEpisodeEndsAtAnInvalidAnswer(t *testing.T) {
	var e Episode
	e.Reset(parse(t, "4*5+6"), 26, 20, 0.3)
	var got []float64
	for _, tool := range []Tool{PUSHV, PUSHOP, PUSHV, APPLY, ANS, PUSHOP} {
		got = append(got, e.Step(tool))
	}
	require.Equal(t, []float64{0, 0, 0, 0, 0.3 * 1 / 2, 0}, got)
	require.True(t, e.Done())
	require.False(t, e.Machine().Answered)
	require.Equal(t, 3, e.Machine().Head, "nothing runs after the end")
}

// The loose machine (Variant.Loose) allows the shortcut the strict one
// refuses: NEXT skips "(" and ")" unconsumed, so (1+2) is answered with
// the brackets never on the stack; and POPPAREN pops a "(" with the head
// anywhere. The strict machine refuses both.
func TestLooseMachineSkipsTokens(t *testing.T) {
	var m Machine
	m.Variant.Loose = true
	m.Reset(parse(t, "(1+2)"))
	require.True(t, m.Variant.Loose, "Reset keeps the variant")
	for _, tool := range []Tool{NEXT, PUSHV, PUSHOP, PUSHV, APPLY, NEXT, ANS} {
		step(t, &m, tool, true)
	}
	require.Equal(t, int64(3), m.Value)
	require.Equal(t, 1, m.Applied)

	m.Reset(parse(t, "(1+2)"))
	step(t, &m, PUSHOP, true)
	step(t, &m, POPPAREN, true) // the head on 1: popped, the head stays
	require.Equal(t, 1, m.Head)
	_, no := m.Depths()
	require.Zero(t, no)
	step(t, &m, NEXT, true)
	step(t, &m, NEXT, true)
	step(t, &m, NEXT, true)
	step(t, &m, PUSHOP, false) // ")" is no operator
	step(t, &m, NEXT, true)
	step(t, &m, NEXT, false) // nothing past the end

	var strict Machine
	strict.Reset(parse(t, "(1+2)"))
	step(t, &strict, NEXT, false)
	step(t, &strict, PUSHOP, true)
	step(t, &strict, POPPAREN, false)
}

// The shunting-yard table solves the loose machine too (its POPPAREN still
// passes a ")" under the head), and the blind one (Variant.Blind) observes
// the operator stack's top as empty whatever is pending.
func TestVariantsObserveAndSolve(t *testing.T) {
	var m Machine
	m.Variant = Variant{Blind: true}
	m.Reset(parse(t, "2*(3-1)"))
	for _, tool := range []Tool{PUSHV, PUSHOP, PUSHOP} {
		step(t, &m, tool, true)
	}
	_, no := m.Depths()
	require.Equal(t, 2, no)
	require.Equal(t, "d·", ObservationName(m.Observe()), "the pending ( is not observed")
	m.Variant.Blind = false
	require.Equal(t, "d·(", ObservationName(m.Observe()))

	m.Variant = Variant{Loose: true}
	m.Reset(parse(t, "2*(3-1)+(4-(5*6))"))
	for steps := 0; !m.Answered && steps < 100; steps++ {
		require.True(t, m.Step(ShuntingYard(m.Observe())))
	}
	require.True(t, m.Answered)
	require.Equal(t, int64(2*(3-1)+(4-(5*6))), m.Value)
}

// The unstacked machine (Variant.Unstacked) keeps no pending operator or
// bracket: PUSHOP and POPPAREN only consume, APPLY is invalid, and ADD, SUB,
// MUL apply the operator the policy names, counted as correct only for
// the operator that joins the two subtrees on top. The stacked machines
// refuse those tools.
func TestUnstackedMachineNamesItsOperators(t *testing.T) {
	var m Machine
	m.Variant.Unstacked = true
	m.Reset(parse(t, "2*(3-1)"))
	step(t, &m, PUSHV, true)
	step(t, &m, PUSHOP, true) // *
	step(t, &m, PUSHOP, true) // (
	_, no := m.Depths()
	require.Zero(t, no, "nothing kept")
	step(t, &m, PUSHV, true)
	step(t, &m, PUSHOP, true) // -
	step(t, &m, PUSHV, true)
	step(t, &m, APPLY, false)
	step(t, &m, ANS, false)
	step(t, &m, SUB, true)
	require.Equal(t, 1, m.Applied)
	require.Equal(t, "d·", ObservationName(0), "the observation's top is always empty")
	require.Equal(t, ")·", ObservationName(m.Observe()))
	step(t, &m, POPPAREN, true)
	step(t, &m, POPPAREN, false) // at the end
	step(t, &m, MUL, true)
	step(t, &m, ANS, true)
	require.Equal(t, int64(4), m.Value)
	require.Equal(t, 2, m.Applied)

	m.Reset(parse(t, "7-5"))
	for _, tool := range []Tool{PUSHV, PUSHOP, PUSHV, ADD, ANS} { // the wrong operator
		step(t, &m, tool, true)
	}
	require.Equal(t, int64(12), m.Value)
	require.Zero(t, m.Applied)

	var stacked Machine
	stacked.Reset(parse(t, "7-5"))
	for _, tool := range []Tool{PUSHV, PUSHOP, PUSHV} {
		step(t, &stacked, tool, true)
	}
	for _, tool := range []Tool{ADD, SUB, MUL} {
		step(t, &stacked, tool, false)
	}
}

// The branching machine, tool by tool on max(2,7)*abs(3-5): a function is
// pushed as "(" is, "," is consumed only with max or min on top, ")" with
// a function on top only by KEEP or OTHER, the observation shows the
// comparison at the ")" that it decides, and only the right branch earns credit.
func TestBranchingMachineToolsOneByOne(t *testing.T) {
	var m Machine
	m.Variant.Branching = true
	m.Reset(parse(t, "M(2,7)*A(3-5)"))
	name := func() string { return BranchingObservationName(m.Observe()) }
	require.Equal(t, "max(·", name())
	step(t, &m, PUSHV, false)
	step(t, &m, PUSHOP, true)
	step(t, &m, PUSHV, true)
	require.Equal(t, ",·max", name(), "the comparison is observed only at a )")
	step(t, &m, KEEP, false)
	step(t, &m, PUSHOP, true) // the comma
	step(t, &m, PUSHOP, false)
	step(t, &m, PUSHV, true)
	require.Equal(t, ")·max<", name(), "2 < 7")
	step(t, &m, POPPAREN, false)
	step(t, &m, APPLY, false)
	step(t, &m, KEEP, true) // max(2,7) = 7, the right argument
	require.Equal(t, 1, m.Applied)
	v, _ := m.Top()
	require.Equal(t, int64(7), v)
	step(t, &m, PUSHOP, true) // *
	step(t, &m, PUSHOP, true) // abs(
	require.Equal(t, "d·abs", name(), "7 on top belongs to no decision: its sign is not observed")
	step(t, &m, PUSHV, true)
	step(t, &m, PUSHOP, true)
	step(t, &m, PUSHV, true)
	require.Equal(t, ")·-", name())
	step(t, &m, KEEP, false)
	step(t, &m, APPLY, true)
	require.Equal(t, ")·abs<", name(), "3 − 5 < 0")
	before := m
	step(t, &m, KEEP, true) // wrong: abs(−2) is 2
	require.Equal(t, 2, m.Applied, "a wrong branch earns nothing")
	m = before
	step(t, &m, OTHER, true)
	require.Equal(t, 3, m.Applied)
	require.Equal(t, "$·*", name())
	step(t, &m, APPLY, true)
	step(t, &m, ANS, true)
	require.Equal(t, int64(14), m.Value)
	require.Equal(t, 4, m.Applied)

	m.Reset(parse(t, "N(9,4)"))
	for _, tool := range []Tool{PUSHOP, PUSHV, PUSHOP, PUSHV} {
		step(t, &m, tool, true)
	}
	require.Equal(t, ")·min>", name())
	step(t, &m, OTHER, true) // min(9,4) is the right one: OTHER takes 9
	v, _ = m.Top()
	require.Equal(t, int64(9), v)
	require.Zero(t, m.Applied)

	var plain Machine // without Branching the tools and cells are refused
	plain.Reset(parse(t, "A(3)"))
	step(t, &plain, PUSHOP, false)
	step(t, &plain, KEEP, false)
}

// Subsets on hand-made tapes: ties, zeros, negatives (an answer alone does
// not count), the depth of the brackets, and 0 for a malformed tape.
func TestSubsets(t *testing.T) {
	for spelled, want := range map[string]uint32{
		"M(3,3)":                  SubsetTie | SubsetDepth0<<1,
		"A(3-5)":                  SubsetNegative | SubsetDepth0<<1,
		"A(5-5)+1":                SubsetTie | SubsetDepth0<<1,
		"3-5":                     SubsetDepth0,
		"(3-5)*2":                 SubsetNegative | SubsetDepth0<<1,
		"3-5*2+1":                 SubsetNegative | SubsetDepth0,
		"0+1":                     SubsetZero | SubsetDepth0,
		"N(2,A(1-(2-(3-(4-5)))))": SubsetNegative | SubsetDepth0<<4,
		"M(1,2)-9":                SubsetDepth0 << 1,
		"3+":                      0,
		"M(3)":                    0,
	} {
		require.Equal(t, want, Subsets(parse(t, spelled)), spelled)
	}
}
