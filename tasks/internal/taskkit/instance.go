package taskkit

import (
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/task"
)

// FromCalc is the task instance of a calc instance.
func FromCalc(c calc.Instance) task.Instance {
	in := task.Instance{Level: c.Level, Vars: c.Vars, Budget: c.Budget, Target: c.Target, NInner: c.NInner}
	copy(in.Digits[:], c.Digits[:])
	copy(in.Inner[:], c.Inner[:c.NInner])
	return in
}

// ToCalc is the calc instance of a task instance.
func ToCalc(in *task.Instance) calc.Instance {
	c := calc.Instance{Level: in.Level, Vars: in.Vars, Budget: in.Budget, Target: in.Target, NInner: in.NInner}
	copy(c.Digits[:], in.Digits[:])
	copy(c.Inner[:], in.Inner[:in.NInner])
	return c
}
