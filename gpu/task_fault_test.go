//go:build cgo

package gpu

import (
	"errors"
	"testing"

	"github.com/simdrl/simdrl/env/taperules"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// panicky is a user's tape task (misruled, unedited) whose code panics
// where at says: "rules" when the kernels' tables are made from its rules,
// "draw" when an instance is drawn.
type panicky struct {
	misruled
	at string
}

func (p panicky) TapeRules() taperules.Rules {
	if p.at == "rules" {
		panic("no rules today")
	}
	return p.misruled.TapeRules()
}

func (p panicky) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split) task.Instance {
	if p.at == "draw" {
		panic("no draw today")
	}
	return p.misruled.Draw(key, round, episode, purpose, level, split)
}

// requireTaskPanic checks that err is the task's panic with value v, while
// doing while, in one line that names the task.
func requireTaskPanic(t *testing.T, err error, v any, while string) {
	t.Helper()
	var pe *task.PanicError
	require.True(t, errors.As(err, &pe), "%v", err)
	require.Equal(t, "misruled", pe.Task)
	require.Equal(t, v, pe.Value)
	require.Equal(t, while, pe.While)
	require.NotContains(t, err.Error(), "\n")
}

// TestNewWithTaskReturnsATasksPanic: a panic in the task's code while the
// GPU engine is built is a *task.PanicError naming the task, through the Go
// API (NewWithTask), as cpu.NewWithTask returns one: never a crash, and
// refused before the device is opened (no GPU needed).
func TestNewWithTaskReturnsATasksPanic(t *testing.T) {
	cfg := tapeConfig(t, "")
	cfg.Task, cfg.ItemFocus = "misruled", false
	e, err := NewWithTask(cfg, panicky{newMisruled(t, ""), "rules"})
	require.Nil(t, e)
	requireTaskPanic(t, err, "no rules today", "opened")
}

// TestGPUUpdateReturnsATasksPanic: a panic in the task's code while the GPU
// trains or evaluates (its draws, on goroutines of the device thread's) is the task's *task.PanicError,
// not a panic of the device thread; the engine still closes.
func TestGPUUpdateReturnsATasksPanic(t *testing.T) {
	openGPU(t).Close()
	cfg := tapeConfig(t, "")
	cfg.Task, cfg.ItemFocus = "misruled", false
	m := newMisruled(t, "")
	e, err := NewWithTask(cfg, panicky{m, "draw"})
	require.NoError(t, err)
	defer e.Close()
	_, err = e.Update(trainer.Plan{Update: 1, Level: 0})
	requireTaskPanic(t, err, "no draw today", "")
	_, err = e.EvaluateAll(16, 1, task.HeldOut)
	requireTaskPanic(t, err, "no draw today", "")
}
