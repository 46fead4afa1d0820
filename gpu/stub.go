//go:build !cgo

package gpu

import (
	"errors"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// errNoCgo is what every entry point returns in a build without cgo.
var errNoCgo = errors.New("gpu: this simdrl was built without cgo (CGO_ENABLED=0), so it cannot load the CUDA driver; rebuild with cgo and a C compiler")

// Device is unavailable without cgo.
type Device struct{}

// Available reports why the GPU cannot be used: always, without cgo.
func Available() error { return errNoCgo }

// Open fails without cgo.
func Open() (*Device, error) { return nil, errNoCgo }

// Close does nothing.
func (d *Device) Close() {}

// Describe is empty without cgo.
func (d *Device) Describe() string { return "" }

// New fails without cgo.
func New(cfg trainer.Config) (trainer.Engine, error) { return nil, errNoCgo }

// NewWithTask fails without cgo.
func NewWithTask(cfg trainer.Config, t task.Task) (trainer.Engine, error) {
	return nil, errNoCgo
}

// NewOpened fails without cgo.
func NewOpened(cfg trainer.Config, t task.Task) (trainer.Engine, error) {
	return nil, errNoCgo
}

// MaxSteps bounds the rollouts the GPU runs (run.go's, for the flags' help).
const MaxSteps = trainer.MaxSteps
