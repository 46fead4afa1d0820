package gru_test

import (
	"testing"

	"github.com/simdrl/simdrl/internal/golden"
	"github.com/stretchr/testify/require"
)

// TestGoldenFieldsForward is TestGoldenForward on cases whose inputs carry
// fields and a vector (emb[a] + Σ field_emb.f[o_f] + vec(v)), for a model
// that takes its context as a bag and one that reads it.
func TestGoldenFieldsForward(t *testing.T) {
	for _, dir := range golden.FieldsDirs() {
		m := goldenForward(t, dir)
		require.NotEmpty(t, m.Fields, "%s holds no fields", dir)
		require.Positive(t, m.Vector, "%s holds no vector", dir)
	}
}
