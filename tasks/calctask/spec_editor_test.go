package calctask

import (
	"math"
	"strconv"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/stretchr/testify/require"
)

// TestSpecEditor: the options the command line's flags set land in the spec
// as CalcSpec writes them (the partial credit bit for bit), bad values are
// SpecErrors naming the option, levels compare canonically, and the shape
// drops the partial credit.
func TestSpecEditor(t *testing.T) {
	var ed specEditor
	require.Equal(t, []string{"levels", "partial_credit"}, ed.FlagOptions())
	spec, err := ed.WithOption("", "levels", "a*b, a*b+c")
	require.NoError(t, err)
	pc := math.Nextafter(0.3, 1)
	spec, err = ed.WithOption(spec, "partial_credit", strconv.FormatFloat(pc, 'g', -1, 64))
	require.NoError(t, err)
	require.Equal(t, CalcSpec{Levels: "a*b, a*b+c", PartialCredit: pc}.String(), spec)
	got, err := ParseCalcSpec(spec)
	require.NoError(t, err)
	require.Equal(t, math.Float64bits(pc), math.Float64bits(got.PartialCredit))
	require.Equal(t, "a*b, a*b+c", ed.Option(spec, "levels"))
	require.Equal(t, strconv.FormatFloat(pc, 'g', -1, 64), ed.Option(spec, "partial_credit"))
	require.Empty(t, ed.Option("", "partial_credit"))
	require.Equal(t, "-0", ed.Option("partial_credit=-0", "partial_credit"), "a negative zero is kept")
	require.Equal(t, "levels=a*b, a*b+c", ed.Shape(spec+"; observe=auto"))
	require.Equal(t, "levels=a*b; observe=off", ed.Shape("levels=a*b; partial_credit=0.3; observe=off"))

	_, err = ed.WithOption("", "partial_credit", "11")
	require.ErrorContains(t, err, "partial_credit: must be in [0, 10], got 11")
	_, err = ed.WithOption("", "levels", "a*b; x=1")
	require.ErrorContains(t, err, "holds ; or =")

	require.True(t, ed.Same("levels=a*b", "levels=(b*a)"), "levels compare canonically")
	require.True(t, ed.Same("", "levels="+calc.DefaultLevelsSpec), "the default levels, however written")
	require.False(t, ed.Same("levels=a*b", "levels=a*b; partial_credit=0.3"))
	require.False(t, ed.Same("levels=a*b", "levels=a+b"))
}
