package gru_test

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/stretchr/testify/require"
)

// TestLayoutStart: a layout's rollouts start at token 10 (task.CTX) unless
// SetStart gives another token of the vocabulary; Start writes it as every
// episode's first input.
func TestLayoutStart(t *testing.T) {
	l, err := gru.NewLayout(gru.Config{Vocab: 18, Hidden: 4, Levels: 1})
	require.NoError(t, err)
	require.Equal(t, int32(gru.DefaultStart), l.Start)
	require.Equal(t, int32(10), l.Start)

	small, err := gru.NewLayout(gru.Config{Vocab: 4, Hidden: 4, Levels: 1})
	require.NoError(t, err)
	for _, tok := range []int32{4, 10, -1} {
		require.EqualError(t, small.SetStart(tok), fmt.Sprintf("gru: first input %d outside the vocabulary of 4 tokens", tok))
	}
	require.NoError(t, small.SetStart(2))
	params := make([]float32, small.Size)
	small.Init(params, 1)
	w, err := gru.NewWorkspace(small, 3, 2)
	require.NoError(t, err)
	w.Reset(3)
	for b := range 3 {
		w.SetContext(b, 0, []int32{int32(b % 2), 2})
	}
	w.Start(params)
	require.Equal(t, []int32{2, 2, 2}, w.Inputs(0))
}
