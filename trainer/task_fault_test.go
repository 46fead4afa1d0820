package trainer

import (
	"errors"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// faulty is the calc task with the method faultyMode names panicking (or,
// "open", its opener; "nil", an opener returning neither task nor error).
type faulty struct{ task.Task }

var faultyMode string

func faultyIf(mode string) {
	if faultyMode == mode {
		panic("faulty " + mode)
	}
}

func (faulty) Name() string { faultyIf("name"); return "test-faulty" }
func (f faulty) Vocab() int { faultyIf("vocab"); return f.Task.Vocab() }
func (f faulty) Levels() []task.Level {
	faultyIf("levels")
	return f.Task.Levels()
}
func (f faulty) Answer() int32 { faultyIf("answer"); return f.Task.Answer() }
func (f faulty) DefaultTuning() task.Tuning {
	faultyIf("tuning")
	return f.Task.(task.Tuned).DefaultTuning()
}
func (f faulty) Score(in *task.Instance, program []int32) task.Outcome {
	return f.Task.(task.Scorer).Score(in, program)
}

func init() {
	task.Register("test-faulty", func(spec string) (task.Task, error) {
		faultyIf("open")
		if faultyMode == "nil" {
			return nil, nil
		}
		t, err := task.Open("calc", spec)
		return faulty{t}, err
	})
}

// TestWithTaskReturnsATasksPanic: a panic in a registered task's code
// while trainer.WithTask and Config.Validate open and check it is returned
// as a *task.PanicError that names the task (an opener returning no task
// as a *task.ViolationError), never a crash of the program; a task handed
// to ValidateFor whose Name panics too, named by its Go type.
func TestWithTaskReturnsATasksPanic(t *testing.T) {
	defer func() { faultyMode = "" }()
	for _, mode := range []string{"open", "nil", "name", "vocab", "levels", "answer", "tuning"} {
		faultyMode = mode
		cfg := DefaultRecipe()
		cfg.Task = "test-faulty"
		_, err := WithTask(cfg)
		require.Error(t, err, mode)
		require.ErrorContains(t, err, "test-faulty", mode)
		var pe *task.PanicError
		var ve *task.ViolationError
		if mode == "nil" {
			var fe *FieldError
			require.True(t, errors.As(err, &fe), "%s: %v", mode, err)
			require.True(t, errors.As(fe.Err, &ve), "%s: %v", mode, fe.Err)
			continue
		}
		require.True(t, errors.As(err, &pe), "%s: %v", mode, err)
		require.Equal(t, "faulty "+mode, pe.Value)
		if mode != "tuning" { // Validate does not read the tuning
			require.Error(t, cfg.Validate(), mode)
		}
	}
	faultyMode = ""
	cfg := DefaultRecipe()
	cfg.Task = "test-faulty"
	cfg, err := WithTask(cfg)
	require.NoError(t, err)
	tk, err := task.Open("test-faulty", cfg.TaskSpec)
	require.NoError(t, err)
	l, err := enginekit.NewLayout(cfg.Hidden, tk)
	require.NoError(t, err)
	e := &fakeEngine{steps: cfg.Steps, params: make([]float32, l.Size), m: make([]float32, l.Size), v: make([]float32, l.Size)}
	for _, mode := range []string{"name", "levels", "vocab"} {
		faultyMode = mode
		err := cfg.ValidateFor(tk)
		var pe *task.PanicError
		require.True(t, errors.As(err, &pe), "%s: %v", mode, err)
		require.Contains(t, pe.Task, "faulty", mode)
		_, err = New(cfg, tk, e) // trainer.New checks it too
		require.True(t, errors.As(err, &pe), "New, %s: %v", mode, err)
	}
}
