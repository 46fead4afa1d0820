package calctask

import (
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/stretchr/testify/require"
)

// CalcWith reaches the calc parse's interrupt and progress; after it, Calc of
// the same levels in another spelling is answered from calc's cache.
func TestCalcWithInterruptsAndRemembers(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	before := calc.StatesVisited()
	_, err := CalcWith("h*h+a", 0, calc.ParseOptions{Interrupt: stop})
	require.ErrorIs(t, err, calc.ErrInterrupted)
	require.Less(t, calc.StatesVisited()-before, int64(64), "stopped at the search's first check")

	var lines []string
	ct, err := CalcWith("a*b+c*d+e, (a*b)", 0.3, calc.ParseOptions{Progress: func(msg string) { lines = append(lines, msg) }})
	require.NoError(t, err)
	require.Empty(t, lines, "a quick search reports nothing")
	again, err := Calc("e+(c*d+a*b), b*a", 0.3)
	require.NoError(t, err)
	require.Equal(t, ct.Levels()[0].Budget, again.Levels()[0].Budget)
	require.Equal(t, "e+(c*d+a*b)", again.Levels()[0].Name, "names keep the spelling")
}
