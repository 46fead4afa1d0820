package task

import (
	"fmt"
	"math"
)

// FieldSpec is what a Fielded task's policy sees at every step beside its
// previous action: categorical fields, each embedded on its own and summed
// into the model's input (a field of O values costs O rows, so a pool of
// four values is four fields, not one of O⁴ codes), and a float vector of
// Vector numbers through a linear layer. One field and no vector is the
// model of an Observer of that many observations, bit for bit.
type FieldSpec struct {
	Sizes  []int // each field's values: field f takes 0..Sizes[f]−1
	Vector int   // the float vector's width (0: none)
}

// Fielded is a task whose policy sees fields and a vector at every step
// (FieldSpec) instead of one observation token. Its Env implements
// FieldEnv; a Stepwise task's games implement FieldGame, and gameEnv
// passes their fields on. A task is an Observer or Fielded, not both.
type Fielded interface {
	Task
	Fields() FieldSpec
}

// FieldGame is the game of a Fielded Stepwise task: after Reset and after
// every Step it writes the fields and vector the policy sees next into the
// caller's buffers (len(fields) = len(Sizes), len(vector) = Vector),
// allocating nothing. Past its end (not stepped any more) it writes what it
// wrote last.
type FieldGame interface {
	Game
	WriteFields(fields []int32, vector []float32)
}

// FieldEnv is the Env of a Fielded task: WriteFields writes row's current
// fields and vector (after its Reset or the last Step) into the caller's
// buffers, allocating nothing.
type FieldEnv interface {
	Env
	WriteFields(row int, fields []int32, vector []float32)
}

// Fields is t's FieldSpec: a Fielded task's, else none (an Observer's one
// observation reaches the model as today, gru.Config.Observations).
func Fields(t Task) FieldSpec {
	if f, ok := t.(Fielded); ok {
		return f.Fields()
	}
	return FieldSpec{}
}

// IsFielded reports whether t declares fields or a vector.
func IsFielded(t Task) bool {
	s := Fields(t)
	return len(s.Sizes) > 0 || s.Vector > 0
}

// WriteFields passes row's game's fields on (FieldGame). A Fielded task
// whose game does not write them breaks its contract: the ViolationError
// panics, recovered as the chunk's error by the engines.
func (e *gameEnv) WriteFields(row int, fields []int32, vector []float32) {
	g, ok := e.eps[row].(FieldGame)
	if !ok {
		panic(violation("the task declares fields (task.Fielded), but its game does not write them (task.FieldGame)"))
	}
	g.WriteFields(fields, vector)
}

// CheckFields refuses a field value outside its field and a vector entry
// that is not finite: a task's bug, which would read outside the model's
// table or poison its parameters. It allocates only when it refuses.
func CheckFields(sizes []int, fields []int32, vector []float32) error {
	for f, o := range fields {
		if o < 0 || int(o) >= sizes[f] {
			return violation("field %d is %d, outside 0..%d (task.FieldSpec)", f, o, sizes[f]-1)
		}
	}
	for k, x := range vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return violation("vector entry %d is %v, not a finite number", k, x)
		}
	}
	return nil
}

// CheckFieldSpec refuses a spec the model cannot take: a field without
// values, a negative vector, or a task that is an Observer too.
func CheckFieldSpec(t Task) error {
	s := Fields(t)
	for f, o := range s.Sizes {
		if o < 1 {
			return fmt.Errorf("task %s: field %d has %d values (at least 1)", t.Name(), f, o)
		}
	}
	if s.Vector < 0 {
		return fmt.Errorf("task %s: a vector of %d numbers", t.Name(), s.Vector)
	}
	if IsFielded(t) && Observations(t) > 0 {
		return fmt.Errorf("task %s declares both an observation vocabulary (task.Observer) and fields (task.Fielded): declare its observation as one field", t.Name())
	}
	return nil
}
