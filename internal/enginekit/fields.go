package enginekit

import (
	"fmt"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
)

// FieldInputs feeds a Fielded task's fields and vector (task/fields.go) to
// the policy: after Reset and after every step its Env writes each row's
// into the workspace (gru.Workspace.Fields, Vector), checked; one field
// and no vector is an observation model (gru.Config.Observations), whose
// input is action·O + the field, today's arithmetic.
type FieldInputs struct {
	env   task.FieldEnv
	sizes []int     // each field's values
	one   []int32   // one field: the row's field, before it becomes the input
	none  []float32 // one field: its (empty) vector
}

// NewFieldInputs is the field feed of task t's Env, or nil for a task that
// is not Fielded.
func NewFieldInputs(t task.Task, l *gru.Layout, env task.Env) (*FieldInputs, error) {
	if !task.IsFielded(t) {
		return nil, nil
	}
	fe, ok := env.(task.FieldEnv)
	if !ok {
		return nil, fmt.Errorf("task %s declares fields (task.Fielded), but its Env does not write them (task.FieldEnv)", t.Name())
	}
	f := &FieldInputs{env: fe, sizes: task.Fields(t).Sizes}
	if !l.Fielded() {
		f.one = make([]int32, 1)
	}
	return f, nil
}

// Write sets step t's inputs of the chunk's rows: each row's previous
// action (prev; nil at step 0: the layout's Start) with the fields its Env
// writes now. A task's field outside its field panics with the
// ViolationError, which the engines recover as the chunk's error.
func (f *FieldInputs) Write(ws *gru.Workspace, l *gru.Layout, t int, prev []int32) {
	in := ws.Inputs(t)
	nf, F := len(l.Fields), l.Vector
	fs, vs := ws.Fields(t), ws.Vector(t)
	for b := range in {
		a := l.Start
		if prev != nil {
			a = prev[b]
		}
		fields, vec := f.one, f.none
		if l.Fielded() {
			fields, vec = fs[b*nf:(b+1)*nf], vs[b*F:(b+1)*F]
		}
		f.env.WriteFields(b, fields, vec)
		if err := task.CheckFields(f.sizes, fields, vec); err != nil {
			panic(err)
		}
		if l.Fielded() {
			in[b] = a
		} else {
			in[b] = l.Input(a, fields[0])
		}
	}
}
