package policy

import (
	"errors"
	"fmt"

	"github.com/simdrl/simdrl/task"
)

// ActFields is Act for a task with fields (task.Fielded): fields and vector
// are what its game wrote since the last step (task.FieldGame.WriteFields;
// after Reset at the first step), len(Sizes) and Vector long. The model's
// input is the previous token with them, as the engines feed it. It
// allocates nothing unless it refuses.
func (s *Session) ActFields(fields []int32, vector []float32) (int32, error) {
	p, ws, t := s.p, s.ws, s.next
	l, spec := p.layout, p.fields
	switch {
	case !p.fielded:
		return 0, fmt.Errorf("policy: the %s task has no fields (task.Fielded): use Act", p.task.Name())
	case !s.started:
		return 0, errors.New("policy: Act before Start")
	case t >= ws.T:
		return 0, ErrBudget
	case len(fields) != len(spec.Sizes) || len(vector) != spec.Vector:
		return 0, fmt.Errorf("policy: %d fields and a vector of %d for the %s task's %d and %d", len(fields), len(vector), p.task.Name(), len(spec.Sizes), spec.Vector)
	}
	if err := task.CheckFields(spec.Sizes, fields, vector); err != nil {
		return 0, fmt.Errorf("policy: %v", err)
	}
	if t == 0 {
		ws.Start(p.params)
	}
	prev := l.Start
	if t > 0 {
		prev = ws.StepActions(t - 1)[0]
	}
	if l.Fielded() {
		copy(ws.Fields(t), fields)
		copy(ws.Vector(t), vector)
		ws.Inputs(t)[0] = prev
	} else { // one field: the observation model (gru.Config.Observations)
		ws.Inputs(t)[0] = l.Input(prev, fields[0])
	}
	ws.Step(p.params, p.derived, t, s.mode, s.stream)
	s.next = t + 1
	return ws.StepActions(t)[0], nil
}
