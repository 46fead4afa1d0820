package cpu

import (
	"github.com/simdrl/simdrl/gru"
)

// model is the parameters and what is derived from them (the token table and
// the packed heads, gru.Derived). Every way of setting the parameters —
// initialisation, a loaded or resumed checkpoint, an optimiser step — goes
// through set, so the derived state can never describe other parameters
// than the ones held (a -load once evaluated its file with the token table of
// the -seed's initialisation).
type model struct {
	layout  *gru.Layout
	params  []float32
	derived *gru.Derived
}

func newModel(l *gru.Layout) *model {
	return &model{layout: l, params: make([]float32, l.Size), derived: gru.NewDerived(l)}
}

// set lets fill write the parameters, then recomputes the derived state,
// whether or not fill succeeded (a failed fill may have written part of them).
func (m *model) set(fill func(params []float32) error) error {
	err := fill(m.params)
	m.derived.Compute(m.layout, m.params)
	return err
}
