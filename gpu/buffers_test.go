//go:build cgo

package gpu

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestBuffersListEveryDeviceBuffer: engine.buffers, whose total allocate
// checks against the device's memory before it allocates anything, lists
// every device buffer of the engine (each devPtr field) exactly once, with
// some bytes; the inputs only for a model that observes or reads its
// context, the tape machines only for the tape's scorer, one per episode,
// PPO's stored rollout only for -estimator ppo, the fields' buffers only for
// a fielded layout (fields.go: those of its fields, or of its vector, only
// with them).
// No device is needed: the plan is the engine's sizes.
func TestBuffersListEveryDeviceBuffer(t *testing.T) {
	for _, c := range []struct {
		name         string
		observations int
		read         bool
		kind         int
		ppo          bool
		fields       []int
		vector       int
	}{{"bag", 0, false, scoreSeed, false, nil, 0}, {"observe", 2, false, scoreCalc, false, nil, 0}, {"read", 0, true, scoreCalc, false, nil, 0},
		{"tape", 35, false, scoreTape, false, nil, 0}, {"host", 3, false, scoreHost, false, nil, 0}, {"ppo", 0, false, scoreCalc, true, nil, 0},
		{"fields", 0, false, scoreHost, false, []int{3, 5}, 4}, {"fields alone", 0, false, scoreHost, false, []int{3, 5}, 0},
		{"vector alone", 0, false, scoreHost, false, nil, 4}} {
		l, err := gru.NewLayout(gru.Config{Vocab: 19, Hidden: 40, Levels: 3, Observations: c.observations, Read: c.read, Fields: c.fields, Vector: c.vector})
		require.NoError(t, err)
		e := &engine{d: &Device{SMs: 7}, l: l, V: l.Vocab, H: l.Hidden, S: l.Levels, T: 9, B: 24, maxN: 50, O: l.Observations, NV: l.InputRows(), scoreKind: c.kind, masks: c.kind == scoreHost,
			fielded: l.Fielded(), nf: len(l.Fields), FR: l.FieldRows(), F: l.Vector}
		if c.read {
			e.R = record.MaxShown
		}
		if c.ppo {
			e.cfg.Estimator = trainer.EstimatorPPO
		}
		e.tokBlock = tokenBlock(e.NV)
		e.slabCaps()
		listed := map[*devPtr]int{}
		for _, b := range e.buffers() {
			listed[b.p]++
			require.Positivef(t, b.bytes, "%s: a buffer of no bytes", c.name)
			if b.p == &e.table {
				require.Equal(t, 4*(e.NV+l.FieldRows())*3*e.H, b.bytes, "%s: a row a token, then a row a field value", c.name)
			}
			if b.p == &e.machines {
				require.Equal(t, tapeStateBytes*e.maxN, b.bytes, "one machine an episode")
			}
		}
		v := reflect.ValueOf(e).Elem()
		fields := 0
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.Type() != reflect.TypeFor[devPtr]() {
				continue
			}
			fields++
			name := v.Type().Field(i).Name
			want := 1
			if name == "inputs" && c.observations == 0 && !c.read || name == "machines" && c.kind != scoreTape || (name == "hostH" || name == "hostLegal") && c.kind != scoreHost || strings.HasPrefix(name, "ppo") && !c.ppo ||
				slices.Contains([]string{"gates", "iota"}, name) && !l.Fielded() ||
				slices.Contains([]string{"fieldIn", "fieldOffs", "partField", "dF"}, name) && len(c.fields) == 0 ||
				slices.Contains([]string{"vecM", "fieldVec", "dM"}, name) && c.vector == 0 {
				want = 0
			}
			require.Equalf(t, want, listed[(*devPtr)(f.Addr().UnsafePointer())], "%s: engine.%s listed by engine.buffers", c.name, name)
			delete(listed, (*devPtr)(f.Addr().UnsafePointer()))
		}
		require.Empty(t, listed, "%s: buffers that are no field of the engine", c.name)
		require.Greater(t, fields, 30, "the engine's device buffers")
	}
}
