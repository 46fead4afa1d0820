package countdowntask

import (
	"fmt"

	"github.com/simdrl/simdrl/env/countdown"
)

// The observation is one categorical token (today's contract: one per
// step), what the last token did × how many values the pool holds:
// started, refused, undone, or combined into a value below, equal to or
// above the target. It is written by observe alone, so that a task with
// several fields (issue 53, item 1) can replace it in one place.

// moved is what a token did.
type moved int32

const (
	started moved = iota
	refused
	undone
	combined
)

// The observation's kinds: combined splits by the new value's relation to
// the target.
var observationKinds = []string{"start", "refused", "undone", "below", "equal", "above"}

// Observations is len(observationKinds) × the pool's sizes (1..n values);
// 0 with observe=fields, whose first field is this observation.
func (t *poolTask) Observations() int {
	if t.fields {
		return 0
	}
	return t.observationKindCount() * t.n
}

// observe is the observation after a token that did what on p.
func (t *poolTask) observe(p *countdown.Pool, what moved) int32 {
	k := int32(what)
	if what == combined {
		v, _ := p.Last()
		k += 1 + int32(v.Cmp(p.Target())) // below 3, equal 4, above 5
	}
	return k*int32(t.n) + int32(p.Left()-1)
}

// ObservationName spells an observation: "above · 2 left".
func (t *poolTask) ObservationName(obs int32) string {
	k, left := obs/int32(t.n), obs%int32(t.n)+1
	if obs < 0 || int(k) >= t.observationKindCount() {
		return "[?]"
	}
	name := "thought" // think.go's, after the kinds
	if int(k) < len(observationKinds) {
		name = observationKinds[k]
	}
	return fmt.Sprintf("%s · %d left", name, left)
}
