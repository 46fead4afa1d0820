package exprtask

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/env/expr"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
)

// DefaultExprLeaves is the expr task's largest size by default.
const DefaultExprLeaves = 6

// ExprSpec is the expr task's options. Written as a spec (String), they are
//
//	leaves=6; split=pattern; partial_credit=0.3; order=reversed
//
// with CalcSpec's syntax (options separated by ";", each key=value at most
// once, spaces ignored). An option left out has its default: leaves 6 (the
// sizes 2..leaves, at most expr.MaxLeaves = 7), split expressions
// (expressions, pattern or length: see expr.Split), partial_credit 0,
// order forward (the expression's tokens as written; reversed shows them
// last to first, so that what the program needs first was read last, the
// source reversal of Sutskever et al., 2014).
type ExprSpec struct {
	Leaves        int // the largest size, 2..expr.MaxLeaves (0: DefaultExprLeaves)
	Split         expr.Split
	PartialCredit float64 // the weight of the inner values held, in [0, MaxPartialCredit]
	Reversed      bool    // order=reversed: the context shows the expression's tokens last to first
}

// ParseExprSpec reads an expr spec (ExprSpec); Leaves is always set.
func ParseExprSpec(spec string) (ExprSpec, error) {
	s := ExprSpec{Leaves: DefaultExprLeaves}
	opts, err := task.SpecOptions(spec, "expr takes leaves=…; split=…; partial_credit=…; order=…")
	if err != nil {
		return s, err
	}
	for _, o := range opts {
		key, value := o.Key, o.Value
		switch key {
		case "leaves":
			n, err := strconv.Atoi(value)
			if err != nil || strconv.Itoa(n) != value {
				return s, &task.SpecError{Key: "leaves", Err: fmt.Errorf("%q is not a whole number", value)}
			}
			if n == 0 { // the struct's zero is the default, not a size
				return s, &task.SpecError{Key: "leaves", Err: fmt.Errorf("must be in 2..%d, got 0", expr.MaxLeaves)}
			}
			s.Leaves = n
		case "split":
			sp, err := expr.ParseSplit(value)
			if err != nil {
				return s, &task.SpecError{Key: "split", Err: err}
			}
			s.Split = sp
		case "order":
			switch value {
			case "forward":
				s.Reversed = false
			case "reversed":
				s.Reversed = true
			default:
				return s, &task.SpecError{Key: "order", Err: fmt.Errorf("%q is not forward or reversed", value)}
			}
		case "partial_credit":
			if s.PartialCredit, err = taskkit.ParsePartialCredit(value); err != nil {
				return s, err
			}
		default:
			return s, &task.SpecError{Key: "task_spec", Err: fmt.Errorf("expr has no option %q (it takes leaves, split, partial_credit and order)", key)}
		}
	}
	return s, s.Check()
}

// Check refuses options out of range: leaves outside 2..expr.MaxLeaves (0
// is the default), an unknown split, a partial credit outside [0,
// MaxPartialCredit].
func (s ExprSpec) Check() error {
	if s.Leaves != 0 && (s.Leaves < 2 || s.Leaves > expr.MaxLeaves) {
		return &task.SpecError{Key: "leaves", Err: fmt.Errorf("must be in 2..%d, got %d", expr.MaxLeaves, s.Leaves)}
	}
	if s.Split < expr.SplitExpressions || s.Split > expr.SplitLength {
		return &task.SpecError{Key: "split", Err: fmt.Errorf("%v is not expressions, pattern or length", s.Split)}
	}
	if s.Split == expr.SplitLength && s.leaves() < 3 {
		return &task.SpecError{Key: "split", Err: fmt.Errorf("length holds out the largest size, so it needs leaves ≥ 3 (got %d: nothing would train)", s.leaves())}
	}
	if !(s.PartialCredit >= 0 && s.PartialCredit <= taskkit.MaxPartialCredit) {
		return &task.SpecError{Key: "partial_credit", Err: fmt.Errorf("must be in [0, %d], got %v", taskkit.MaxPartialCredit, s.PartialCredit)}
	}
	return nil
}

// leaves is the largest size, the default for 0.
func (s ExprSpec) leaves() int {
	if s.Leaves == 0 {
		return DefaultExprLeaves
	}
	return s.Leaves
}

// String writes s as a spec that ParseExprSpec reads back as it is (the
// partial credit in the shortest form that round-trips); the defaults are
// left out, so the default task is "".
func (s ExprSpec) String() string {
	var opts []string
	if s.leaves() != DefaultExprLeaves {
		opts = append(opts, "leaves="+strconv.Itoa(s.Leaves))
	}
	if s.Split != expr.SplitExpressions {
		opts = append(opts, "split="+s.Split.String())
	}
	if s.PartialCredit != 0 || math.Signbit(s.PartialCredit) {
		opts = append(opts, "partial_credit="+strconv.FormatFloat(s.PartialCredit, 'g', -1, 64))
	}
	if s.Reversed {
		opts = append(opts, "order=reversed")
	}
	return strings.Join(opts, "; ")
}
