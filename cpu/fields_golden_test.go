package cpu

import (
	"testing"

	"github.com/simdrl/simdrl/internal/golden"
	"github.com/stretchr/testify/require"
)

// TestGoldenFieldsLossAndGradients is TestGoldenLossAndGradients on cases
// whose inputs carry fields and a vector: the gradients of the fields'
// embeddings and of the vector's layer against PyTorch in float64, for a
// model that takes its context as a bag and one that reads it.
func TestGoldenFieldsLossAndGradients(t *testing.T) {
	for _, dir := range golden.FieldsDirs() {
		m := goldenLossAndGradients(t, dir)
		require.NotEmpty(t, m.Fields, "%s holds no fields", dir)
	}
}

// TestGoldenFieldsAdam is TestGoldenAdam on the same cases.
func TestGoldenFieldsAdam(t *testing.T) {
	for _, dir := range golden.FieldsDirs() {
		goldenAdam(t, dir)
	}
}
