package tapetask

import (
	"fmt"
	"strings"

	"github.com/simdrl/simdrl/env/tape"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
)

// tapeTask is package env/tape's machine and family: the policy reads an
// expression through a head, one observation a step (the token under the
// head × the operator stack's top), and computes it with the machine's
// tools on two stacks; it is shown no context. Level i is a size: the
// trained sizes in order, then the longer ones, held out whole (Transfer).
// It runs on the CPU engine only: the CUDA kernels interpret calc's op
// table, not this machine.
type tapeTask struct {
	spec  TapeSpec
	info  []task.Level
	sizes []int
	items [][3][]*tape.Member // per level, per split (Training, HeldOut, Transfer)
}

func init() { task.Register("tape", OpenTape) }

// end is the tape task's context end, never an action: the token after
// its tools (the strict machine's; the loose one's with NEXT; every tool,
// ADD/SUB/MUL among them, without an operator stack); its vocabulary is
// the tools and the end.
func (t *tapeTask) end() int32 {
	switch {
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

// TapeOf is the tape task of the options s.
func TapeOf(s TapeSpec) (task.Task, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	t := &tapeTask{spec: s}
	lo, hi := s.leaves()
	for n := lo; n <= hi; n++ {
		t.sizes = append(t.sizes, n)
	}
	t.sizes = append(t.sizes, s.longer()...)
	for _, n := range t.sizes {
		members, err := tape.Family(n)
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
			l.Shortest = min(l.Shortest, m.Shortest())
		}
		t.items = append(t.items, parts)
		t.info = append(t.info, l)
	}
	return t, nil
}

func (*tapeTask) Name() string             { return "tape" }
func (t *tapeTask) Vocab() int             { return int(t.end()) + 1 }
func (*tapeTask) Answer() int32            { return tape.ANS }
func (*tapeTask) HoldsOut() bool           { return true }
func (t *tapeTask) ContextEnd() int32      { return t.end() }
func (t *tapeTask) NotActions() []int32    { return []int32{t.end()} }
func (t *tapeTask) Levels() []task.Level   { return t.info }
func (*tapeTask) Observations() int        { return tape.NumObservations }
func (t *tapeTask) PartialCredit() float64 { return t.spec.PartialCredit }

// Unstaged: one level embedding for every size, so that a size never
// trained on meets the same model (a level embedding of its own would be
// untrained).
func (*tapeTask) Unstaged() {}

// TokenName spells a tool, "END" the context end.
func (t *tapeTask) TokenName(tok int32) string {
	if tok == t.end() {
		return "END"
	}
	return tape.ToolName(tok)
}

// ObservationName spells an observation, "head·top" (tape.ObservationName).
func (*tapeTask) ObservationName(obs int32) string { return tape.ObservationName(obs) }

// DefaultTuning is partial credit 0.3 (the probe's) and an entropy bonus
// of 0.1 decaying to a floor of 0.01 (the probe's runs stalled until it
// fell near 0.01), over up to 3,000 updates; the context is the bag of
// nothing (the task shows none) and the default recipe's curriculum mixes
// the trained sizes. The run may stop only once the bonus is at its floor:
// the trained sizes are solved long before the policy is sharp enough for
// the longer ones, and the stop rule must not look at those (they are the
// test), so it waits for the end of exploration instead.
func (t *tapeTask) DefaultTuning() task.Tuning {
	s := t.spec
	s.PartialCredit = 0.3
	const decay = 1500
	return task.Tuning{Spec: s.String(), EntropyCoef: 0.1, Updates: 3000, EntropyUpdates: decay, EntropyFinal: 0.01, StopFrom: decay}
}

// Items is how many members of level's size split has.
func (t *tapeTask) Items(level int, split task.Split) int {
	if level < 0 || level >= len(t.items) || split < task.Training || split > task.Transfer {
		return 0
	}
	return len(t.items[level][split])
}

// drawn is split, or when level has no items there the first of Training,
// HeldOut and Transfer that has (exprTask.drawn).
func (t *tapeTask) drawn(level int, split task.Split) task.Split {
	if t.Items(level, split) > 0 {
		return split
	}
	for _, sp := range []task.Split{task.Training, task.HeldOut, task.Transfer} {
		if len(t.items[level][sp]) > 0 {
			return sp
		}
	}
	return task.Training // unreachable: every size has members
}

// Draw draws a member of level uniformly from split's (another split's
// when split has none there) and its digits uniformly: the item from step 0
// of the counter-based stream, leaf k's digit from word k%4 of step 1+k/4.
// It allocates nothing.
func (t *tapeTask) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split) task.Instance {
	split = t.drawn(level, split)
	w := key.Block(round, episode, 0, purpose)
	item := taskkit.Below(w[0], w[1], uint64(len(t.items[level][split])))
	return t.DrawItem(key, round, episode, purpose, level, split, int(item))
}

// DrawItem is Draw with the item given (an index into Items(level, split),
// or into the other split's when split has none there).
func (t *tapeTask) DrawItem(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split, item int) task.Instance {
	m := t.items[level][t.drawn(level, split)][item]
	var d [tape.MaxLeaves]int32
	var w [4]uint32
	for k := range m.Leaves {
		if k%4 == 0 {
			w = key.Block(round, episode, uint32(1+k/4), purpose)
		}
		d[k] = int32(rng.Below(w[k%4], 10))
	}
	var cells [tape.MaxCells]tape.Cell
	in := task.Instance{Level: int32(level), Budget: int32(TapeBudget(m.Shortest())), Target: m.Eval(d[:]), Item: int32(item)}
	in.NInner = packTape(m.Tape(d[:], cells[:]), &in.Inner)
	return in
}

// An instance's tape is packed into its Inner words (the tape task has no
// inner values; Instance has no other room for up to tape.MaxCells cells,
// and an engine copies the struct as it is): 4 bits a cell, cell i in bits
// 4·(i%16) of word i/16, ended by the nibble tapeStop (tape.Leaf, which is
// never on a tape) unless the words are full.
const tapeStop = int64(tape.Leaf)

// packTape writes cells into words and returns how many it used.
func packTape(cells []tape.Cell, words *[task.MaxInner]int64) int32 {
	*words = [task.MaxInner]int64{}
	n := min(len(cells), 16*task.MaxInner)
	for i, c := range cells[:n] {
		words[i/16] |= int64(c) << (4 * (i % 16))
	}
	if n < 16*task.MaxInner {
		words[n/16] |= tapeStop << (4 * (n % 16))
	}
	return int32(min(n/16+1, task.MaxInner))
}

// unpackTape reads an instance's tape into dst (at least tape.MaxCells
// long) and returns it: the cells up to the stop nibble, at most
// tape.MaxCells.
func unpackTape(in *task.Instance, dst []tape.Cell) []tape.Cell {
	words := max(0, min(int(in.NInner), task.MaxInner))
	n := 0
	for n < min(16*words, tape.MaxCells) {
		c := in.Inner[n/16] >> (4 * (n % 16)) & 15
		if c == tapeStop {
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
	e.Reset(unpackTape(in, cells[:]), in.Target, int(in.Budget), t.spec.PartialCredit)
}

// run steps e through program (to its end, or the program's), calling each
// with the step's token when it is not nil.
func (t *tapeTask) run(e *tape.Episode, program []int32, each func(tok int32)) task.Outcome {
	for _, tok := range program {
		if e.Done() {
			break
		}
		e.Step(tok)
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
	ex := task.Explanation{Level: int(in.Level), Target: in.Target, Note: "tape " + spelled.String()}
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
		ex.Trace = append(ex.Trace, task.Step{Token: t.TokenName(tok), State: state + " · obs " + tape.ObservationName(m.Observe())})
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
func (e *tapeEnv) Observations() int    { return tape.NumObservations }
func (e *tapeEnv) Correct(row int) bool { return e.eps[row].Correct() }

func (e *tapeEnv) Reset(row int, in *task.Instance) int32 {
	e.t.reset(&e.eps[row], in)
	return e.eps[row].Observe()
}

func (e *tapeEnv) Step(actions []int32, out task.Transition) {
	for r, a := range actions {
		ep := &e.eps[r]
		out.Reward[r] = ep.Step(a)
		out.Obs[r] = ep.Observe()
		out.Done[r] = ep.Done()
	}
}

var (
	_ task.Stepper      = (*tapeTask)(nil)
	_ task.Observer     = (*tapeTask)(nil)
	_ task.Unstaged     = (*tapeTask)(nil)
	_ task.Itemized     = (*tapeTask)(nil)
	_ task.Tuned        = (*tapeTask)(nil)
	_ task.ContextEnder = (*tapeTask)(nil)
)
