//go:build !cgo

package gpu

import (
	"errors"
	"io"

	"github.com/simdrl/simdrl/checkpoint"
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

// Run fails without cgo.
func Run(cfg trainer.Config, out io.Writer) (*trainer.Report, error) { return nil, errNoCgo }

// Engine is unavailable without cgo (NewEngine always fails).
type Engine struct{ trainer.Engine }

// NewEngine fails without cgo.
func NewEngine(cfg trainer.Config) (*Engine, error) { return nil, errNoCgo }

// Checkpoint fails without cgo.
func (g *Engine) Checkpoint() (*checkpoint.File, error) { return nil, errNoCgo }

// Resume fails without cgo.
func (g *Engine) Resume(f *checkpoint.File) error { return errNoCgo }

// LoadWeights fails without cgo.
func (g *Engine) LoadWeights(f *checkpoint.File) error { return errNoCgo }

// RunWith fails without cgo.
func RunWith(cfg trainer.Config, out io.Writer, opt trainer.Options) (*trainer.Report, error) {
	return nil, errNoCgo
}
