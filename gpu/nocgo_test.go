//go:build !cgo

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

func TestNoCgo(t *testing.T) {
	require.ErrorContains(t, Available(), "without cgo")
	_, err := Open()
	require.ErrorContains(t, err, "CGO_ENABLED=0")
	_, err = New(trainer.DefaultRecipe())
	require.ErrorContains(t, err, "without cgo")
}
