package exprtask

import (
	"fmt"

	"github.com/simdrl/simdrl/task"
)

// specEditor is the expr task's task.SpecEditor: its specs compare as
// ParseExprSpec reads them; no flag of the command line sets its options
// (-task-spec does), and the whole spec shapes the model.
type specEditor struct{}

var _ task.SpecEditor = specEditor{}

func (specEditor) FlagOptions() []string          { return nil }
func (specEditor) Option(spec, key string) string { return "" }
func (specEditor) Shape(spec string) string       { return spec }
func (specEditor) Prepare(string, func(string))   {}

func (specEditor) WithOption(spec, key, value string) (string, error) {
	return spec, &task.SpecError{Key: key, Err: fmt.Errorf("the expr task takes its options in -task-spec")}
}

// Same compares the specs as written back.
func (specEditor) Same(a, b string) bool {
	if a == b {
		return true
	}
	sa, errA := ParseExprSpec(a)
	sb, errB := ParseExprSpec(b)
	return errA == nil && errB == nil && sa.String() == sb.String()
}
