package testsize

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLongReadsTheEnvironment(t *testing.T) {
	t.Setenv("SIMDRL_TEST_LONG", "1")
	require.True(t, Long())
	t.Setenv("SIMDRL_TEST_LONG", "")
	require.False(t, Long())
	t.Setenv("SIMDRL_TEST_LONG", "0")
	require.False(t, Long(), "only 1 asks")
}
