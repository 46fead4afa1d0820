package trainer

import (
	"math"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

// TestCheckpointsBeforeTaskSpecs: checkpoints written before task specs
// (levels and partial_credit keys) load, the calc ones with those options
// as their spec, exactly; the seed one with the empty spec.
func TestCheckpointsBeforeTaskSpecs(t *testing.T) {
	f, err := checkpoint.ReadFile("../testdata/checkpoints-legacy/before-task-spec-calc.safetensors")
	require.NoError(t, err)
	require.Contains(t, f.Metadata["config"], `"levels":"a*b, a*b+c*d","partial_credit":0.3`)
	cfg, err := CheckpointConfig(f)
	require.NoError(t, err)
	require.Equal(t, "calc", cfg.Task)
	require.Equal(t, "levels=a*b, a*b+c*d; partial_credit=0.3", cfg.TaskSpec)
	s, err := calctask.ParseCalcSpec(cfg.TaskSpec)
	require.NoError(t, err)
	require.Equal(t, math.Float64bits(0.3), math.Float64bits(s.PartialCredit))

	f, err = checkpoint.ReadFile("../testdata/checkpoints-legacy/before-task-spec-seed.safetensors")
	require.NoError(t, err)
	cfg, err = CheckpointConfig(f)
	require.NoError(t, err)
	require.Equal(t, "seed", cfg.Task)
	require.Empty(t, cfg.TaskSpec)
}

// TestOldCalcOptionsRefused: the old keys keep their old rules (calc only),
// do not mix with task_spec, and cannot smuggle options into the spec.
func TestOldCalcOptionsRefused(t *testing.T) {
	cfg := DefaultRecipe()
	l, err := enginekit.NewLayout(cfg.Hidden, seedtask.Seed())
	require.NoError(t, err)
	p := make([]float32, l.Size)
	f := buildCheckpoint(cfg, l, p, p, p, 0, 0, newCurriculum(cfg, 3))
	raw := f.Metadata["config"]
	for _, c := range []struct{ from, to, want string }{
		{`"task_spec":""`, `"levels":"a*b","partial_credit":0`, "levels applies to the calc task"},
		{`"task_spec":""`, `"levels":"","partial_credit":0.3`, "partial_credit applies to the calc task"},
		{`"task":"seed","task_spec":""`, `"task":"calc","task_spec":"","levels":"a*b"`, "give one or the other"},
		{`"task":"seed","task_spec":""`, `"task":"calc","levels":"a*b; partial_credit=5"`, "holds ; or ="},
		{`"task_spec":""`, `"levels":3`, "field levels"},
	} {
		g := *f
		g.Metadata = map[string]string{}
		for k, v := range f.Metadata {
			g.Metadata[k] = v
		}
		g.Metadata["config"] = replaceOnce(t, raw, c.from, c.to)
		_, err := ReadCheckpointConfig(&g)
		require.ErrorContains(t, err, c.want, g.Metadata["config"])
	}
}

func replaceOnce(t *testing.T, s, from, to string) string {
	require.Contains(t, s, from)
	return strings.Replace(s, from, to, 1)
}
