package countdowntask

import (
	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/task"
)

// With -task-spec observe=fields (or observe=vector, below) the policy sees its pool (issue 53, item
// 1) instead of the one observation token (observe.go): categorical fields,
// each embedded on its own and summed (task.Fielded), and a float vector.
// The default stays the token, so that the runs recorded with it
// (docs/results.md) replay bit for bit.
//
// Fields, in order:
//   - what the last token did × how many values are left: the token
//     observation (observe), as a field of 6·n values (7·n with think=N);
//   - each slot's value (slotValue): empty, an integer 0..100, an integer
//     above 100, a negative one, or a fraction;
//   - the target, 0..100.
//
// The vector: per slot, whether it holds a value, its value over the
// target (clipped to ±ratioClip), the sign of value − target and whether it
// equals the target; then the values left over n and the steps played over
// the budget (the game learns how much search it has left).

// The slot field's values: 0 empty, 1+v for an integer v in 0..maxExact,
// then the buckets below.
const (
	maxExact      = countdown.MaxTarget
	slotAbove     = maxExact + 2 // an integer above maxExact
	slotNegative  = maxExact + 3 // an integer below 0 (the 24 Game's)
	slotFraction  = maxExact + 4 // not an integer (the 24 Game's)
	slotValues    = maxExact + 5
	targetValues  = maxExact + 1
	ratioClip     = 4
	perSlot       = 4 // the vector's numbers per slot
	globalNumbers = 2 // values left, steps played
)

// The spec option's values: observe=fields selects all of the above;
// observe=vector only the first field and the vector (no value
// embeddings: the numbers reach the policy as numbers alone).
const (
	observeToken  = "token"
	observeFields = "fields"
	observeVector = "vector"
)

// buildFieldSpec is t's FieldSpec, built once at open (Fields is read
// without allocating).
func (t *poolTask) buildFieldSpec(values bool) {
	sizes := []int{t.observationKindCount() * t.n}
	if values {
		for range t.n {
			sizes = append(sizes, slotValues)
		}
		sizes = append(sizes, targetValues)
	}
	t.fieldSpec = task.FieldSpec{Sizes: sizes, Vector: perSlot*t.n + globalNumbers}
}

// Fields is the observation fields (none unless observe=fields: then the
// task is no Observer, Observations is 0).
func (t *poolTask) Fields() task.FieldSpec { return t.fieldSpec }

// slotValue is v's slot field value (see the constants).
func slotValue(v countdown.Value) int32 {
	switch {
	case !v.IsInt():
		return slotFraction
	case v.N < 0:
		return slotNegative
	case v.N > maxExact:
		return slotAbove
	}
	return 1 + int32(v.N)
}

// WriteFields writes the fields and vector of the game's state (Reset and
// every Step keep what it needs: the last observation, the steps played).
func (g *Game) WriteFields(fields []int32, vector []float32) {
	p, n := &g.p, g.t.n
	values := len(fields) > 1 // observe=fields, not observe=vector
	fields[0] = g.obs
	t := p.Target()
	tf := float32(t.N) / float32(t.D)
	if values {
		fields[1+n] = int32(min(max(t.N/t.D, 0), maxExact))
	}
	for i := range n {
		v, live := p.Value(i)
		x := vector[perSlot*i : perSlot*(i+1)]
		if values {
			fields[1+i] = 0
			if live {
				fields[1+i] = slotValue(v)
			}
		}
		if !live {
			x[0], x[1], x[2], x[3] = 0, 0, 0, 0
			continue
		}
		c := v.Cmp(t)
		x[0], x[1], x[2], x[3] = 1, min(max(float32(v.N)/float32(v.D)/tf, -ratioClip), ratioClip), float32(c), 0
		if c == 0 {
			x[3] = 1
		}
	}
	rest := vector[perSlot*n:]
	rest[0] = float32(p.Left()) / float32(n)
	rest[1] = float32(min(g.steps, g.budget)) / float32(max(g.budget, 1))
}

var _ task.FieldGame = (*Game)(nil)
