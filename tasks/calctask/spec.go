package calctask

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
)

// CalcSpec is the calc task's options. Written as a spec (String), they are
//
//	levels=a*b, a*b+c*d:9; partial_credit=0.3; observe=off
//
// options separated by ";", each key=value, each key at most once, in any
// order, spaces around keys and values ignored. An option left out has its
// default: levels the default curriculum (calc.DefaultLevelsSpec: see
// calc.ParseLevels for the curriculum's syntax), partial_credit 0, observe
// auto. The empty spec is the default task.
type CalcSpec struct {
	Levels        string      // the curriculum as expressions ("" for the default)
	PartialCredit float64     // the weight of the inner values held, in [0, 10]
	Observe       CalcObserve // whether the policy observes the machine (ObserveAuto: iff a level branches)
}

// CalcObserve is the calc task's observe option: whether its policy
// observes the signs of v and v−m after every token (calc.Machine.Observe).
//
// The task runs on the branching machine (calc.BranchVocab tokens, NEG and
// SWAP) iff some level uses abs, max or min or observe is on; otherwise it
// is exactly the 19-token task, its hashes unchanged. It observes iff it
// runs on the branching machine and observe is not off: observe=off with
// branching levels is the open-loop baseline (the same tools, no
// observations).
type CalcObserve string

const (
	ObserveAuto CalcObserve = ""    // observe iff some level branches (written "auto", or left out)
	ObserveOn   CalcObserve = "on"  // the branching machine and its observations, whatever the levels
	ObserveOff  CalcObserve = "off" // no observations (the branching machine still, if a level branches)
)

// MaxPartialCredit bounds the calc task's partial credit.
const MaxPartialCredit = taskkit.MaxPartialCredit

// ParseCalcSpec reads a calc spec (CalcSpec); it checks the syntax and the
// partial credit's range, not the levels (Calc parses and searches those).
func ParseCalcSpec(spec string) (CalcSpec, error) {
	var s CalcSpec
	opts, err := task.SpecOptions(spec, "calc takes levels=…; partial_credit=…")
	if err != nil {
		return s, err
	}
	for _, o := range opts {
		key, value := o.Key, o.Value
		switch key {
		case "levels":
			s.Levels = value
		case "partial_credit":
			if s.PartialCredit, err = taskkit.ParsePartialCredit(value); err != nil {
				return s, err
			}
		case "observe":
			switch value {
			case "auto":
				s.Observe = ObserveAuto
			case "on", "off":
				s.Observe = CalcObserve(value)
			default:
				return s, &task.SpecError{Key: "observe", Err: fmt.Errorf("%q is not auto, on or off", value)}
			}
		default:
			return s, &task.SpecError{Key: "task_spec", Err: fmt.Errorf("calc has no option %q (it takes levels, partial_credit and observe)", key)}
		}
	}
	return s, s.checkPartialCredit()
}

// Check refuses options that String cannot write for ParseCalcSpec to read
// back as they are: levels holding ";" or "=" (no curriculum does), a
// partial credit out of range.
func (s CalcSpec) Check() error {
	if strings.ContainsAny(s.Levels, ";=") {
		return &task.SpecError{Key: "levels", Err: fmt.Errorf("%q holds ; or =, which no curriculum does", s.Levels)}
	}
	if err := s.checkObserve(); err != nil {
		return err
	}
	return s.checkPartialCredit()
}

func (s CalcSpec) checkObserve() error {
	switch s.Observe {
	case ObserveAuto, ObserveOn, ObserveOff:
		return nil
	}
	return &task.SpecError{Key: "observe", Err: fmt.Errorf("%q is not auto, on or off", string(s.Observe))}
}

func (s CalcSpec) checkPartialCredit() error {
	if !(s.PartialCredit >= 0 && s.PartialCredit <= MaxPartialCredit) {
		return &task.SpecError{Key: "partial_credit", Err: fmt.Errorf("must be in [0, %d], got %v", MaxPartialCredit, s.PartialCredit)}
	}
	return nil
}

// String writes s as a spec that ParseCalcSpec reads back exactly (the
// partial credit in the shortest form that round-trips); the defaults are
// left out (observe=auto too: specs written before the option existed are
// unchanged), so the default task is "".
func (s CalcSpec) String() string {
	var opts []string
	if s.Levels != "" {
		opts = append(opts, "levels="+s.Levels)
	}
	if s.PartialCredit != 0 || math.Signbit(s.PartialCredit) {
		opts = append(opts, "partial_credit="+strconv.FormatFloat(s.PartialCredit, 'g', -1, 64))
	}
	if s.Observe != ObserveAuto {
		opts = append(opts, "observe="+string(s.Observe))
	}
	return strings.Join(opts, "; ")
}
