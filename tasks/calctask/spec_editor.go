package calctask

import (
	"math"
	"strconv"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
)

// specEditor is the calc task's task.SpecEditor: -levels and
// -partial-credit set its options, levels compare canonically (a*b is
// (b*a)), and the levels and observe option shape the model.
type specEditor struct{}

var _ task.SpecEditor = specEditor{}

func (specEditor) FlagOptions() []string { return []string{"levels", "partial_credit"} }

// Option is an option of spec as String writes it ("" for its default).
func (specEditor) Option(spec, key string) string {
	s, _ := ParseCalcSpec(spec)
	switch key {
	case "levels":
		return s.Levels
	case "partial_credit":
		if s.PartialCredit == 0 && !math.Signbit(s.PartialCredit) {
			return ""
		}
		return strconv.FormatFloat(s.PartialCredit, 'g', -1, 64)
	case "observe":
		return string(s.Observe)
	}
	return ""
}

// WithOption sets one option; a spec that does not parse is taken as the
// defaults (its own error is opening's), as the flags always did.
func (specEditor) WithOption(spec, key, value string) (string, error) {
	s, _ := ParseCalcSpec(spec)
	switch key {
	case "levels":
		s.Levels = value
	case "partial_credit":
		pc, err := taskkit.ParsePartialCredit(value)
		if err != nil {
			return spec, err
		}
		s.PartialCredit = pc
	default:
		one, err := ParseCalcSpec(key + "=" + value)
		if err != nil {
			return spec, err
		}
		s.Observe = one.Observe
	}
	if err := s.Check(); err != nil {
		return s.String(), err
	}
	return s.String(), nil
}

// Same compares the options, the levels canonically; specs that do not
// parse are not the same unless written alike.
func (specEditor) Same(a, b string) bool {
	if a == b {
		return true
	}
	sa, errA := ParseCalcSpec(a)
	sb, errB := ParseCalcSpec(b)
	return errA == nil && errB == nil && sameLevels(sa.Levels, sb.Levels) &&
		sa.PartialCredit == sb.PartialCredit && sa.Observe == sb.Observe
}

// sameLevels reports whether two curricula are the same levels, however
// spelled ("" is the default): calc.CanonicalSpec compares a*b and (b*a) as
// one level. Specs that do not parse are compared as written.
func sameLevels(a, b string) bool {
	canon := func(spec string) string {
		if spec == "" {
			spec = calc.DefaultLevelsSpec
		}
		if c, err := calc.CanonicalSpec(spec); err == nil {
			return c
		}
		return spec
	}
	return a == b || canon(a) == canon(b)
}

// Shape is the levels and the observe option (the partial credit is the
// recipe's).
func (specEditor) Shape(spec string) string {
	s, _ := ParseCalcSpec(spec)
	return CalcSpec{Levels: s.Levels, Observe: s.Observe}.String()
}

// Prepare searches the levels' shortest programs once; later openings of
// the same levels are served from env/calc's cache.
func (specEditor) Prepare(spec string, progress func(msg string)) {
	s, _ := ParseCalcSpec(spec)
	_, _ = CalcWith(s.Levels, 0, calc.ParseOptions{Progress: progress})
}
