package tapetask

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/env/tape"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
)

// TapeSpec is the tape task's options. Written as a spec (String), they are
//
//	leaves=2..5; longer=6,8,12,16,32; partial_credit=0.3; rules=strict; observe=on; pending=stack; depth=1; branching=off; head=tape
//
// with CalcSpec's syntax (options separated by ";", each key=value at most
// once, spaces ignored). leaves is the range of sizes trained on (each with
// a fifth of its expressions held out); longer the sizes only evaluated
// (the length split, evaluated at the end), each larger than every trained
// size, at most tape.MaxLeaves, or "none". rules=loose and observe=off are
// issue 38's comparisons (tape.Variant): the loose tools that allow a
// shortcut through h, the observation without the operator stack's top,
// and pending=h, no operator stack (the pending operators and brackets
// left to h, ADD/SUB/MUL for APPLY). depth=D is the depth split: at the
// trained sizes only members nested at most D deep (tape.Member.Depth) are
// trained on or held out, the deeper ones are Transfer (evaluated at the
// end, never trained). branching=on adds abs, max and min
// (tape.FamilyOf, tape.Variant.Branching); head=context reads the
// expression into h as the context and observes only the operator stack's
// top. An option left
// out has its default: leaves 2..5, longer 6,8,12,16,32, partial_credit 0,
// rules strict, observe on, pending stack, no depth split, branching off,
// head tape.
type TapeSpec struct {
	Min, Max      int     // the trained sizes, 2 ≤ Min ≤ Max ≤ tape.MaxLeaves (0, 0: 2..5)
	Longer        []int   // the sizes only evaluated, increasing (nil: the default; empty: none)
	PartialCredit float64 // the weight of the share of operators applied correctly, in [0, taskkit.MaxPartialCredit]
	Loose         bool    // rules=loose: tape.Variant.Loose (the NEXT tool; POPPAREN any time)
	Blind         bool    // observe=off: tape.Variant.Blind (the operator stack's top unobserved)
	Unstacked     bool    // pending=h: tape.Variant.Unstacked (no operator stack)
	DepthSplit    bool    // depth=TrainDepth was given: the depth split
	TrainDepth    int     // the deepest nesting trained on, 0..tape.MaxLeaves
	// Branching: branching=on, the family with abs, max and min
	// (tape.FamilyOf) on the branching machine (tape.Variant.Branching).
	Branching bool
	// HeadContext: head=context, the expression read into h before acting
	// (shown as the context) instead of through the head, whose token is
	// no longer observed (tape.Variant.Headless).
	HeadContext bool
}

// head=context shows the whole expression: every size's fits a context
// (a plain tape of n leaves is at most 4·n−5 cells, tape's family tests).
var _ [task.MaxContext - (4*tape.MaxLeaves - 5)]struct{}

// variant is the machine the options ask for.
func (s TapeSpec) variant() tape.Variant {
	return tape.Variant{Loose: s.Loose, Blind: s.Blind, Unstacked: s.Unstacked, Branching: s.Branching, Headless: s.HeadContext}
}

// The tape task's defaults: the length split of issue 38.
var (
	defaultTapeLeaves = [2]int{2, 5}
	defaultTapeLonger = []int{6, 8, 12, 16, 32}
)

// ParseTapeSpec reads a tape spec (TapeSpec), every option set.
func ParseTapeSpec(spec string) (TapeSpec, error) {
	s := TapeSpec{Min: defaultTapeLeaves[0], Max: defaultTapeLeaves[1]} // Longer nil: the default until written
	opts, err := task.SpecOptions(spec, "tape takes leaves=…; longer=…; partial_credit=…; rules=…; observe=…; pending=…; depth=…; branching=…; head=…")
	if err != nil {
		return s, err
	}
	for _, o := range opts {
		switch o.Key {
		case "leaves":
			lo, hi, ok := strings.Cut(o.Value, "..")
			if !ok {
				hi = lo
			}
			if s.Min, err = wholeNumber("leaves", lo); err != nil {
				return s, err
			}
			if s.Max, err = wholeNumber("leaves", hi); err != nil {
				return s, err
			}
			if s.Min < 2 || s.Max > tape.MaxLeaves || s.Min > s.Max { // as written: 0..0 is no default
				return s, &task.SpecError{Key: "leaves", Err: fmt.Errorf("must be a range a..b with 2 ≤ a ≤ b ≤ %d, got %s", tape.MaxLeaves, o.Value)}
			}
		case "longer":
			s.Longer = []int{}
			if o.Value == "none" {
				continue
			}
			for _, f := range strings.Split(o.Value, ",") {
				n, err := wholeNumber("longer", strings.TrimSpace(f))
				if err != nil {
					return s, err
				}
				s.Longer = append(s.Longer, n)
			}
		case "partial_credit":
			if s.PartialCredit, err = taskkit.ParsePartialCredit(o.Value); err != nil {
				return s, err
			}
		case "rules":
			v, err := oneOf("rules", o.Value, "strict", "loose")
			if err != nil {
				return s, err
			}
			s.Loose = v == "loose"
		case "observe":
			v, err := oneOf("observe", o.Value, "on", "off")
			if err != nil {
				return s, err
			}
			s.Blind = v == "off"
		case "pending":
			v, err := oneOf("pending", o.Value, "stack", "h")
			if err != nil {
				return s, err
			}
			s.Unstacked = v == "h"
		case "depth":
			if s.TrainDepth, err = wholeNumber("depth", o.Value); err != nil {
				return s, err
			}
			s.DepthSplit = true
		case "branching":
			v, err := oneOf("branching", o.Value, "on", "off")
			if err != nil {
				return s, err
			}
			s.Branching = v == "on"
		case "head":
			v, err := oneOf("head", o.Value, "tape", "context")
			if err != nil {
				return s, err
			}
			s.HeadContext = v == "context"
		default:
			return s, &task.SpecError{Key: "task_spec", Err: fmt.Errorf("tape has no option %q (it takes leaves, longer, partial_credit, rules, observe, pending, depth, branching and head)", o.Key)}
		}
	}
	return s, s.Check()
}

// oneOf reads a two-valued option, refusing anything else and naming both.
func oneOf(key, value, a, b string) (string, error) {
	if value != a && value != b {
		return "", &task.SpecError{Key: key, Err: fmt.Errorf("must be %s or %s, got %q", a, b, value)}
	}
	return value, nil
}

// wholeNumber reads an option's whole number.
func wholeNumber(key, value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || strconv.Itoa(n) != value {
		return 0, &task.SpecError{Key: key, Err: fmt.Errorf("%q is not a whole number", value)}
	}
	return n, nil
}

// Check refuses options out of range: trained sizes outside
// 2..tape.MaxLeaves or reversed, longer sizes not increasing, not above the
// trained ones (the default longer sizes: blamed on leaves) or above
// tape.MaxLeaves, a partial credit outside [0,
// taskkit.MaxPartialCredit].
func (s TapeSpec) Check() error {
	lo, hi := s.leaves()
	if lo < 2 || hi > tape.MaxLeaves || lo > hi {
		return &task.SpecError{Key: "leaves", Err: fmt.Errorf("must be a range a..b with 2 ≤ a ≤ b ≤ %d, got %d..%d", tape.MaxLeaves, lo, hi)}
	}
	if s.Longer == nil && defaultTapeLonger[0] <= hi {
		// The longer sizes nobody wrote: the trained ones are at fault.
		fix := "give longer=none"
		if hi < tape.MaxLeaves {
			fix += fmt.Sprintf(" or longer sizes in %d..%d", hi+1, tape.MaxLeaves)
		}
		return &task.SpecError{Key: "leaves", Err: fmt.Errorf("%d..%d: the default longer=%s does not lie above %d, the largest trained size: %s",
			lo, hi, joinSizes(defaultTapeLonger), hi, fix)}
	}
	prev := hi
	for _, n := range s.longer() {
		if n <= prev || n > tape.MaxLeaves {
			return &task.SpecError{Key: "longer", Err: fmt.Errorf("sizes must increase from above the trained %d to at most %d, got %s", hi, tape.MaxLeaves, joinSizes(s.longer()))}
		}
		prev = n
	}
	if s.DepthSplit && (s.TrainDepth < 0 || s.TrainDepth > tape.MaxLeaves) {
		return &task.SpecError{Key: "depth", Err: fmt.Errorf("must be in 0..%d, got %d", tape.MaxLeaves, s.TrainDepth)}
	}
	if s.Branching && (s.Loose || s.Blind || s.Unstacked) {
		return &task.SpecError{Key: "branching", Err: fmt.Errorf("is on the strict, observed, stacked machine only (not with rules=loose, observe=off or pending=h)")}
	}
	if s.HeadContext && (s.Loose || s.Blind || s.Unstacked || s.Branching) {
		return &task.SpecError{Key: "head", Err: fmt.Errorf("context is the strict machine's comparison only (not with rules=loose, observe=off, pending=h or branching=on)")}
	}
	if !(s.PartialCredit >= 0 && s.PartialCredit <= taskkit.MaxPartialCredit) {
		return &task.SpecError{Key: "partial_credit", Err: fmt.Errorf("must be in [0, %d], got %v", taskkit.MaxPartialCredit, s.PartialCredit)}
	}
	return nil
}

// leaves is the trained range, the default for 0, 0.
func (s TapeSpec) leaves() (int, int) {
	if s.Min == 0 && s.Max == 0 {
		return defaultTapeLeaves[0], defaultTapeLeaves[1]
	}
	return s.Min, s.Max
}

// longer is the evaluated sizes, the default for nil.
func (s TapeSpec) longer() []int {
	if s.Longer == nil {
		return defaultTapeLonger
	}
	return s.Longer
}

// String writes s as a spec that ParseTapeSpec reads back as it is; the
// defaults are left out, so the default task is "".
func (s TapeSpec) String() string {
	var opts []string
	if lo, hi := s.leaves(); lo != defaultTapeLeaves[0] || hi != defaultTapeLeaves[1] {
		opts = append(opts, fmt.Sprintf("leaves=%d..%d", lo, hi))
	}
	if l := s.longer(); !slices.Equal(l, defaultTapeLonger) {
		opts = append(opts, "longer="+joinSizes(l))
	}
	if s.PartialCredit != 0 || math.Signbit(s.PartialCredit) {
		opts = append(opts, "partial_credit="+strconv.FormatFloat(s.PartialCredit, 'g', -1, 64))
	}
	if s.Loose {
		opts = append(opts, "rules=loose")
	}
	if s.Blind {
		opts = append(opts, "observe=off")
	}
	if s.Unstacked {
		opts = append(opts, "pending=h")
	}
	if s.DepthSplit {
		opts = append(opts, fmt.Sprintf("depth=%d", s.TrainDepth))
	}
	if s.Branching {
		opts = append(opts, "branching=on")
	}
	if s.HeadContext {
		opts = append(opts, "head=context")
	}
	return strings.Join(opts, "; ")
}

// joinSizes writes sizes as a longer option's value: 6,8,12 (none for none).
func joinSizes(sizes []int) string {
	if len(sizes) == 0 {
		return "none"
	}
	return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(sizes)), ","), "[]")
}
