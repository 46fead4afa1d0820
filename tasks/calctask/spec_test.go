package calctask

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// TestCalcSpecRoundTrips: String writes what ParseCalcSpec reads back bit
// for bit, the defaults as "".
func TestCalcSpecRoundTrips(t *testing.T) {
	for _, s := range []CalcSpec{{}, {Levels: "a*b, a*b+c*d:9"}, {PartialCredit: 0.3}, {Levels: "a*b", PartialCredit: 1.0 / 3},
		{PartialCredit: math.Nextafter(0.3, 1)}, {PartialCredit: 10}} {
		got, err := ParseCalcSpec(s.String())
		require.NoError(t, err, s.String())
		require.Equal(t, s, got, s.String())
		require.Equal(t, math.Float64bits(s.PartialCredit), math.Float64bits(got.PartialCredit))
	}
	require.Empty(t, CalcSpec{}.String())
	require.Equal(t, "levels=a*b; partial_credit=0.3", CalcSpec{Levels: "a*b", PartialCredit: 0.3}.String())
	got, err := ParseCalcSpec(" partial_credit = 0.5 ;levels= a*b , a*b+c ; ")
	require.NoError(t, err)
	require.Equal(t, CalcSpec{Levels: "a*b , a*b+c", PartialCredit: 0.5}, got, "any order, spaces around keys and values")
}

// TestCalcSpecRefuses: each malformed spec is one error naming its option.
func TestCalcSpecRefuses(t *testing.T) {
	for _, c := range []struct{ spec, key, want string }{
		{"levels", "task_spec", "not key=value"},
		{"levels=a*b; levels=a*c", "task_spec", "levels given twice"},
		{"budget=3", "task_spec", `calc has no option "budget"`},
		{"partial_credit=x", "partial_credit", `"x" is not a number`},
		{"partial_credit=10.5", "partial_credit", "must be in [0, 10], got 10.5"},
		{"partial_credit=NaN", "partial_credit", "got NaN"},
		{"partial_credit=-0.1", "partial_credit", "got -0.1"},
	} {
		_, err := ParseCalcSpec(c.spec)
		var se *task.SpecError
		require.ErrorAs(t, err, &se, c.spec)
		require.Equal(t, c.key, se.Key, c.spec)
		require.ErrorContains(t, err, c.want, c.spec)
	}
	require.ErrorContains(t, CalcSpec{Levels: "a*b; partial_credit=5"}.Check(), "holds ; or =")
	_, err := Calc("a*b", 11)
	require.ErrorContains(t, err, "partial_credit: must be in [0, 10]")
}
