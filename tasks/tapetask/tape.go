package tapetask

import (
	"fmt"
	"strings"

	"github.com/simdrl/simdrl/env/tape"
	"github.com/simdrl/simdrl/env/taperules"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
)

// tapeTask is package env/tape's machine and family: the policy reads an
// expression through a head, one observation a step (the token under the
// head × the operator stack's top), and computes it with the machine's
// tools on two stacks; it is shown no context. Level i is a size: the
// trained sizes in order, then the longer ones, held out whole (Transfer).
// The CUDA kernels run it too (taperules.Ruled: gpu's tape.cuh), unless it
// reads its context (head=context with -context read).
type tapeTask struct {
	spec  TapeSpec
	info  []task.Level
	sizes []int
	items taskkit.Splits[*tape.Member] // per level, per split (Training, HeldOut, Transfer)
}

func init() { task.Register("tape", OpenTape) }

// end is the tape task's context end, never an action: the token after
// its tools (the strict machine's; the loose one's with NEXT; every tool,
// ADD/SUB/MUL among them, without an operator stack); its vocabulary is
// the tools and the end.
func (t *tapeTask) end() int32 {
	switch {
	case t.spec.Branching:
		return tape.NumTools + 2 // KEEP and OTHER after the strict tools
	case t.spec.Unstacked:
		return tape.NumAllTools
	case t.spec.Loose:
		return tape.NumLooseTools
	}
	return tape.NumTools
}

// TapeBudget is a member's budget: 1.5× its shortest program, rounded up
// (issue 38's probe).
func TapeBudget(shortest int) int { return (3*shortest + 1) / 2 }

// OpenTape is the tape task of a spec (TapeSpec: "leaves=2..5;
// longer=6,8,12,16,32; partial_credit=0.3"), as Open("tape", spec) opens
// it.
func OpenTape(spec string) (task.Task, error) {
	s, err := ParseTapeSpec(spec)
	if err != nil {
		return nil, err
	}
	return TapeOf(s)
}

// tool is the machine's tool of an action token: the token itself, but
// with branching tokens NumTools and NumTools+1 are KEEP and OTHER (and
// the loose and unstacked tools are no tokens of its vocabulary).
func (t *tapeTask) tool(tok int32) tape.Tool {
	if t.spec.Branching && tok >= tape.NumTools {
		switch tok - tape.NumTools {
		case 0:
			return tape.KEEP
		case 1:
			return tape.OTHER
		}
		return -1
	}
	return tok
}

// token is the action token of a machine's tool (tool's inverse).
func (t *tapeTask) token(tool tape.Tool) int32 {
	if t.spec.Branching && (tool == tape.KEEP || tool == tape.OTHER) {
		return tape.NumTools + tool - tape.KEEP
	}
	return tool
}

// The context tokens of head=context, after the end: the kinds of cells
// (a digit's value is the machine's operand, never shown).
var tapeContextNames = [...]string{"x", "+", "-", "*", "(", ")"}

// contextToken is the context token of cell c (head=context).
func (t *tapeTask) contextToken(c tape.Cell) int32 {
	kind := int32(0)
	if !c.IsDigit() {
		kind = int32(c-tape.Plus) + 1
	}
	return t.end() + 1 + kind
}

// TapeOf is the tape task of the options s.
func TapeOf(s TapeSpec) (task.Task, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	t := &tapeTask{spec: s}
	var out task.Task = t
	if s.Branching {
		out = tapeBranching{t}
	}
	lo, hi := s.leaves()
	for n := lo; n <= hi; n++ {
		t.sizes = append(t.sizes, n)
	}
	t.sizes = append(t.sizes, s.longer()...)
	for _, n := range t.sizes {
		members, err := tape.FamilyOf(n, s.Branching)
		if err != nil {
			return nil, err
		}
		var parts [3][]*tape.Member
		l := task.Level{Name: fmt.Sprintf("%d leaves", n), Shortest: 1 << 30}
		for i, p := range tape.Parts(members, n <= hi) {
			m := &members[i]
			split := [...]task.Split{tape.PartTraining: task.Training, tape.PartHeldOut: task.HeldOut, tape.PartTransfer: task.Transfer}[p]
			if s.DepthSplit && m.Depth > s.TrainDepth {
				split = task.Transfer // the depth split: nested deeper than any trained
			}
			parts[split] = append(parts[split], m)
			l.Budget = max(l.Budget, TapeBudget(m.Shortest()))
			if s.HeadContext {
				l.Context = max(l.Context, len(m.Cells))
			}
			l.Shortest = min(l.Shortest, m.Shortest())
		}
		t.items = append(t.items, parts)
		t.info = append(t.info, l)
	}
	return out, nil
}

func (*tapeTask) Name() string        { return "tape" }
func (t *tapeTask) Vocab() int        { return int(t.end()) + 1 + t.contextTokens() }
func (*tapeTask) Answer() int32       { return tape.ANS }
func (*tapeTask) HoldsOut() bool      { return true }
func (t *tapeTask) ContextEnd() int32 { return t.end() }
func (t *tapeTask) NotActions() []int32 {
	out := []int32{t.end()}
	for k := range t.contextTokens() {
		out = append(out, t.end()+1+int32(k))
	}
	return out
}
func (t *tapeTask) Levels() []task.Level   { return t.info }
func (t *tapeTask) Observations() int      { return t.spec.variant().Observations() }
func (t *tapeTask) PartialCredit() float64 { return t.spec.PartialCredit }

// RewardNote says what partial credit adds: a share of it for the operators
// applied correctly.
func (t *tapeTask) RewardNote() string {
	if t.spec.PartialCredit > 0 {
		return "partial credit for the operators applied can take them above 1"
	}
	return ""
}

// OrderSensitive: with head=context the expression is the context, spelled
// by its order; through the head the context is empty.
func (t *tapeTask) OrderSensitive() bool { return t.spec.HeadContext }

// Unstaged: one level embedding for every size, so that a size never
// trained on meets the same model (a level embedding of its own would be
// untrained).
func (*tapeTask) Unstaged() {}

// contextTokens is how many context tokens follow the end: the cell kinds
// with head=context, none otherwise.
func (t *tapeTask) contextTokens() int {
	if t.spec.HeadContext {
		return len(tapeContextNames)
	}
	return 0
}

// TokenName spells a tool, "END" the context end, a context token its
// cell kind.
func (t *tapeTask) TokenName(tok int32) string {
	switch k := tok - t.end() - 1; {
	case tok == t.end():
		return "END"
	case k >= 0 && int(k) < t.contextTokens():
		return tapeContextNames[k]
	case tok > t.end():
		return "[?]"
	}
	return tape.ToolName(t.tool(tok))
}

// ObservationName spells an observation, "head·top" (tape.ObservationName,
// or the branching or headless machine's).
func (t *tapeTask) ObservationName(obs int32) string { return t.spec.variant().ObservationName(obs) }

// DefaultTuning is partial credit 0.3 (the probe's) and an entropy bonus
// of 0.1 decaying to a floor of 0.01 (the probe's runs stalled until it
// fell near 0.01), over up to 3,000 updates; the context is the bag of
// nothing (the task shows none) and the default recipe's curriculum mixes
// the trained sizes. The run may stop only once the bonus is at its floor:
// the trained sizes are solved long before the policy is sharp enough for
// the longer ones, and the stop rule must not look at those (they are the
// test), so it waits for the end of exploration instead. Each size's
// members are drawn in proportion to 0.1 + their recent failure rate
// (item focus): the deep members a seed keeps failing get the updates
// (docs/results.md, "Branching members").
func (t *tapeTask) DefaultTuning() task.Tuning {
	s := t.spec
	s.PartialCredit = 0.3
	const decay = 1500
	tu := task.Tuning{Spec: s.String(), EntropyCoef: 0.1, Updates: 3000, EntropyUpdates: decay, EntropyFinal: 0.01, StopFrom: decay, ItemFocus: true}
	if s.HeadContext {
		tu.Context = "read" // token by token, as the expr task reads its expression
	}
	return tu
}

// Items is how many members of level's size split has.
func (t *tapeTask) Items(level int, split task.Split) int { return t.items.Count(level, split) }

// Draw draws a member of level uniformly from split's (another split's
// when split has none there) and its digits uniformly: the item from step 0
// of the counter-based stream, leaf k's digit from word k%4 of step 1+k/4.
// It allocates nothing.
func (t *tapeTask) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split) task.Instance {
	split, item := t.items.Draw(key, round, episode, purpose, level, split)
	return t.DrawItem(key, round, episode, purpose, level, split, item)
}

// DrawItem is Draw with the item given (an index into Items(level, split),
// or into the other split's when split has none there).
func (t *tapeTask) DrawItem(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split, item int) task.Instance {
	m := t.items.Item(level, split, item)
	var d [tape.MaxLeaves]int32
	var w [4]uint32
	for k := range m.Leaves {
		if k%4 == 0 {
			w = key.Block(round, episode, uint32(1+k/4), purpose)
		}
		d[k] = int32(rng.Below(w[k%4], 10))
	}
	return t.instance(level, item, m, &d)
}

// instance is member m's instance on the operands d.
func (t *tapeTask) instance(level, item int, m *tape.Member, d *[tape.MaxLeaves]int32) task.Instance {
	var cells [tape.MaxCells]tape.Cell
	in := task.Instance{Level: int32(level), Budget: int32(TapeBudget(m.Shortest())), Item: int32(item)}
	in.Data[dataTarget] = m.Eval(d[:])
	tp := m.Tape(d[:], cells[:])
	in.Data[dataNWords] = int64(packTape(tp, tapeWords(&in), t.cellBits()))
	if t.spec.HeadContext {
		in.NContext = int32(len(tp)) // every size's fits (tape_spec.go's guard), its level's too (Level.Context)
		for i, c := range tp {
			in.Context[i] = t.contextToken(c)
		}
	}
	return in
}

// cellBits is how many bits a packed cell takes (tape.Variant.CellBits).
func (t *tapeTask) cellBits() int { return t.spec.variant().CellBits() }

// An instance's data (task.Instance.Data) are its target, then how many
// packed words its tape takes, then those words (env/tape's layout, which
// engines that run the machine themselves read: taperules).
const (
	dataTarget  = taperules.DataTarget
	dataNWords  = taperules.DataNWords
	dataWords   = taperules.DataWords
	packedWords = taperules.PackedWords
)

// The packed tape fits an instance's data.
var _ [task.DataWords - dataWords - packedWords]struct{}

// tapeWords are in's packed words.
func tapeWords(in *task.Instance) *[packedWords]int64 {
	return (*[packedWords]int64)(in.Data[dataWords : dataWords+packedWords])
}

// An instance's tape is packed into words (an engine copies the instance
// as it is, and its data have no room for up to tape.MaxCells cells
// otherwise): b bits a cell (cellBits: 4,
// or 5 with branching, whose cells go past 15), k = 64/b cells a word
// (16 or 12), cell i in bits b·(i%k) of word i/k, ended by the stop value
// (tape.Leaf with 4 bits, 31 with 5: never on a tape) unless the words are
// full.
func tapeStop(bits int) int64 {
	if bits == 4 {
		return int64(tape.Leaf)
	}
	return 1<<bits - 1
}

// packTape writes cells into words, bits a cell, and returns how many it
// used.
func packTape(cells []tape.Cell, words *[packedWords]int64, bits int) int32 {
	*words = [packedWords]int64{}
	k := 64 / bits
	n := min(len(cells), k*packedWords)
	for i, c := range cells[:n] {
		words[i/k] |= int64(c) << (bits * (i % k))
	}
	if n < k*packedWords {
		words[n/k] |= tapeStop(bits) << (bits * (n % k))
	}
	return int32(min(n/k+1, packedWords))
}

// unpackTape reads an instance's tape, bits a cell, into dst (at least
// tape.MaxCells long) and returns it: the cells up to the stop value, at
// most tape.MaxCells.
func unpackTape(in *task.Instance, dst []tape.Cell, bits int) []tape.Cell {
	words := max(0, min(in.Data[dataNWords], packedWords))
	packed := tapeWords(in)
	k := 64 / bits
	n := 0
	for n < min(k*int(words), tape.MaxCells) {
		c := packed[n/k] >> (bits * (n % k)) & (1<<bits - 1)
		if c == tapeStop(bits) {
			break
		}
		dst[n] = tape.Cell(c)
		n++
	}
	return dst[:n]
}

// Score runs program on in's tape.
func (t *tapeTask) Score(in *task.Instance, program []int32) task.Outcome {
	var e tape.Episode
	t.reset(&e, in)
	return t.run(&e, program, nil)
}

// reset starts e on in.
func (t *tapeTask) reset(e *tape.Episode, in *task.Instance) {
	var cells [tape.MaxCells]tape.Cell
	e.SetVariant(t.spec.variant())
	e.Reset(unpackTape(in, cells[:], t.cellBits()), in.Data[dataTarget], int(in.Budget), t.spec.PartialCredit)
}

// run steps e through program (to its end, or the program's), calling each
// with the step's token when it is not nil.
func (t *tapeTask) run(e *tape.Episode, program []int32, each func(tok int32)) task.Outcome {
	for _, tok := range program {
		if e.Done() {
			break
		}
		e.Step(t.tool(tok))
		if each != nil {
			each(tok)
		}
	}
	return task.Outcome{Reward: e.Reward(), Correct: e.Correct()}
}

// Verify reports whether program solves every instance of in's member:
// when it answers after applying every operator to its own two subtrees
// (tape.Machine.Applied), its answer is the expression's on any digits, as
// the tools' validity never depends on a digit's value.
func (t *tapeTask) Verify(in *task.Instance, program []int32) bool {
	var e tape.Episode
	t.reset(&e, in)
	t.run(&e, program, nil)
	m := e.Machine()
	ops := 0
	for _, c := range m.Tape() {
		if c.IsFunction() {
			return false // which branch is right depends on the operands
		}
		if c.IsOperator() {
			ops++
		}
	}
	return m.Answered && ops > 0 && m.Applied == ops
}

// Explain says what every tool did: the head, the stacks' depths, the top
// value, and the observation after it.
func (t *tapeTask) Explain(in *task.Instance, program []int32) task.Explanation {
	var e tape.Episode
	t.reset(&e, in)
	m := e.Machine()
	var spelled strings.Builder
	for _, c := range m.Tape() {
		spelled.WriteString(c.String())
	}
	ex := task.Explanation{Level: int(in.Level), Target: fmt.Sprint(in.Data[dataTarget]), Note: "tape " + spelled.String()}
	if int(in.Level) >= 0 && int(in.Level) < len(t.info) {
		ex.Name = t.info[in.Level].Name
	}
	for _, a := range program {
		ex.Tokens = append(ex.Tokens, t.TokenName(a))
	}
	o := t.run(&e, program, func(tok int32) {
		nv, no := m.Depths()
		state := fmt.Sprintf("head %d · %d values · %d pending", m.Head, nv, no)
		if v, ok := m.Top(); ok {
			state += fmt.Sprintf(" · top %d", v)
		}
		ex.Trace = append(ex.Trace, task.Step{Token: t.TokenName(tok), State: state + " · obs " + t.ObservationName(m.Observe())})
	})
	ex.Reward, ex.Correct = o.Reward, o.Correct
	if !m.Answered {
		ex.Note += "; no answer within the budget"
	}
	return ex
}

// NewEnv steps rows of tape.Episode, observing after every step.
func (t *tapeTask) NewEnv(rows int) task.Env {
	return &tapeEnv{t: t, eps: make([]tape.Episode, rows)}
}

// tapeEnv is the tape task's Env.
type tapeEnv struct {
	t   *tapeTask
	eps []tape.Episode
}

func (e *tapeEnv) Rows() int            { return len(e.eps) }
func (e *tapeEnv) Observations() int    { return e.t.Observations() }
func (e *tapeEnv) Correct(row int) bool { return e.eps[row].Correct() }

func (e *tapeEnv) Reset(row int, in *task.Instance) int32 {
	e.t.reset(&e.eps[row], in)
	return e.eps[row].Observe()
}

func (e *tapeEnv) Step(actions []int32, out task.Transition) {
	for r, a := range actions {
		ep := &e.eps[r]
		out.Reward[r] = ep.Step(e.t.tool(a))
		out.Obs[r] = ep.Observe()
		out.Done[r] = ep.Done()
		if out.Truncated != nil {
			out.Truncated[r] = ep.Truncated()
		}
	}
}

// ReportsTruncation: an episode the budget cut ended on a tool other than ANS.
func (e *tapeEnv) ReportsTruncation() bool { return true }

// TapeRules are the machine's variant and each token's tool (tool), for
// engines that run the machine themselves (the CUDA kernels).
func (t *tapeTask) TapeRules() taperules.Rules {
	v := t.spec.variant()
	tools := make([]int32, t.Vocab())
	for tok := range tools {
		tools[tok] = t.tool(int32(tok))
	}
	return taperules.Rules{Variant: v.Bits(), Tools: tools, PartialCredit: t.spec.PartialCredit, Observations: v.Observations()}
}

var (
	_ taperules.Ruled   = (*tapeTask)(nil)
	_ task.Stepper      = (*tapeTask)(nil)
	_ task.Observer     = (*tapeTask)(nil)
	_ task.Unstaged     = (*tapeTask)(nil)
	_ task.Itemized     = (*tapeTask)(nil)
	_ task.Tuned        = (*tapeTask)(nil)
	_ task.ContextEnder = (*tapeTask)(nil)
)

// tapeBranching is the tape task with branching=on: evaluations also
// report the subsets (tape.Subsets: tie, zero, negative, and the depth of
// nesting) on instances it lists (Instances), which the default task does
// not, so that its stop rule and reports stay as they were.
type tapeBranching struct{ *tapeTask }

// SubsetNames are tape.SubsetNames.
func (tapeBranching) SubsetNames() []string { return append([]string(nil), tape.SubsetNames...) }

// Subsets is in's bitmask (tape.Subsets on its tape). It allocates nothing.
func (t tapeBranching) Subsets(in *task.Instance) uint32 {
	var cells [tape.MaxCells]tape.Cell
	return tape.Subsets(unpackTape(in, cells[:], t.cellBits()))
}

// tapeInstancesPerItem is how many operand tuples Instances lists per item.
const tapeInstancesPerItem = 4

// Count is how many instances Instances lists of level's split.
func (t tapeBranching) Count(level int, split task.Split) int {
	return t.Items(level, split) * tapeInstancesPerItem
}

// tapeInstancesKey draws Instances' tuples.
var tapeInstancesKey = rng.NewKey(0x7a9e_0003)

// Instances lists split's items of level in order, each on
// tapeInstancesPerItem fixed operand tuples: the first of the first 64
// draws in the tie subset, the second in the negative one, the third with
// a zero (a leaf's digit set to 0), the last uniform (a search that finds
// none keeps its first draw); at most max (0: all). The tuples depend on
// the item's spelling only.
func (t tapeBranching) Instances(level int, split task.Split, max int) []task.Instance {
	if t.Items(level, split) == 0 {
		return nil
	}
	var out []task.Instance
	for item, m := range t.items[level][split] {
		id := uint32(taskkit.FNV32(m.Spelling))
		for j := uint32(0); j < tapeInstancesPerItem; j++ {
			if max > 0 && len(out) == max {
				return out
			}
			var d [tape.MaxLeaves]int32
			want := [...]uint32{tape.SubsetTie, tape.SubsetNegative, 0, 0}[j]
			for try := uint32(0); try < 64; try++ {
				var e [tape.MaxLeaves]int32
				for k := range m.Leaves {
					e[k] = int32(rng.Below(tapeInstancesKey.Block(id, j, try*8+uint32(k/4), rng.PurposeEval)[k%4], 10))
				}
				if try == 0 {
					d = e
				}
				if want == 0 {
					break
				}
				if in := t.instance(level, item, m, &e); t.Subsets(&in)&want != 0 {
					d = e
					break
				}
			}
			if j == 2 {
				d[rng.Below(tapeInstancesKey.Block(id, j, 1<<20, rng.PurposeEval)[0], uint32(m.Leaves))] = 0
			}
			out = append(out, t.instance(level, item, m, &d))
		}
	}
	return out
}

var (
	_ task.Subsetter = tapeBranching{}
	_ task.Counted   = tapeBranching{}
)
