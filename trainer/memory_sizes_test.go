package trainer

import (
	"testing"
	"unsafe"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// TestMemoryEstimateBoundsTheTrainersStructs: enginekit.TrainerMemory
// counts an evaluation point as EvalPointBytes and a replay entry as an
// episode; neither may outgrow those.
func TestMemoryEstimateBoundsTheTrainersStructs(t *testing.T) {
	require.LessOrEqual(t, unsafe.Sizeof(EvalPoint{}), uintptr(enginekit.EvalPointBytes))
	require.LessOrEqual(t, unsafe.Sizeof(replayEntry{}), unsafe.Sizeof(task.Episode{}))
}
