package taskkit

import (
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/task"
)

// FromCalc is the task instance of a calc instance: its digits are both
// the context the policy reads and the machine's operands (its data, laid
// out as interp.Operands with the target and the inner values).
func FromCalc(c calc.Instance) task.Instance {
	in := task.Instance{Level: c.Level, Budget: c.Budget, NContext: c.Vars}
	copy(in.Context[:], c.Digits[:c.Vars])
	o := interp.Operands{Vars: c.Vars, Target: c.Target, NInner: c.NInner}
	copy(o.Digits[:], c.Digits[:])
	copy(o.Inner[:], c.Inner[:c.NInner])
	o.Put(in.Data[:])
	return in
}

// ToCalc is the calc instance of a task instance: its level, its budget and
// its data's operands (the context aside).
func ToCalc(in *task.Instance) calc.Instance {
	o := interp.Get(in.Data[:])
	c := calc.Instance{Level: in.Level, Vars: o.Vars, Budget: in.Budget, Target: o.Target, NInner: o.NInner}
	copy(c.Digits[:], o.Digits[:])
	copy(c.Inner[:], o.Inner[:max(0, min(o.NInner, interp.MaxInner))])
	return c
}
