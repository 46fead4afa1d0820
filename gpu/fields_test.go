//go:build cgo

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// fieldedSeed is the seed task (as a Scorer: it is no longer the seed
// machine) declaring fields: nothing the CUDA engine can feed.
type fieldedSeed struct{ task.Scorer }

func (fieldedSeed) Fields() task.FieldSpec { return task.FieldSpec{Sizes: []int{3, 4}} }

// TestGPURefusesFields: a task with observation fields is refused in one
// line naming them, before the device is opened (no GPU needed).
func TestGPURefusesFields(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Steps = 7 // its levels' budget: without ReferenceSchedule it plays them whole
	_, err := NewWithTask(cfg, fieldedSeed{seedtask.Seed().(task.Scorer)})
	require.ErrorContains(t, err, "declares observation fields (task.Fielded)")
	require.Contains(t, err.Error(), "train it on the CPU")
	require.NotContains(t, err.Error(), "\n")
}
