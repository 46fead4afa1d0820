package calc

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDefaultLevels(t *testing.T) {
	ls := DefaultLevels()
	require.Len(t, ls, len(documentedShortest))
	for i, c := range documentedShortest {
		require.Equal(t, c.expr, ls[i].Expr.String())
		require.Len(t, ls[i].Shortest, c.length)
		// The package doc's table spells the same programs.
		require.Equal(t, c.program, strings.NewReplacer("[", "", "]", "").Replace(ProgramString(ls[i].Shortest)))
		require.Equal(t, c.length+BudgetSlack, ls[i].Budget, "the default budget is the shortest length plus 2")
	}
	require.Equal(t, []int{2, 3, 4, 4, 5, 6}, []int{ls[0].Vars(), ls[1].Vars(), ls[2].Vars(), ls[3].Vars(), ls[4].Vars(), ls[5].Vars()})
	require.GreaterOrEqual(t, ls[5].Budget, 10)
	require.Equal(t, "a*b:5, a*b+c:6, (a*b+c)-d:7, a*b+c*d:9, (a*b+c)-(d*e):10, a*b+c*d-e*f:13", ls.String())
	// What String writes, ParseLevels reads back.
	again, err := ParseLevels(ls.String())
	require.NoError(t, err)
	require.Equal(t, ls.String(), again.String())
}

func TestParseLevelsBudgetsAndSpellings(t *testing.T) {
	ls, err := ParseLevels(" a × b , a*b + c*d : 12,(a*b+c)−(d*e):8 ")
	require.NoError(t, err)
	require.Len(t, ls, 3)
	require.Equal(t, 5, ls[0].Budget)
	require.Equal(t, 12, ls[1].Budget)
	require.Len(t, ls[1].Shortest, 7)
	require.Equal(t, 8, ls[2].Budget, "a budget equal to the shortest length is enough")
}

// Syntax, budget and duplicate problems are all found before any search,
// and the spec is then refused without searching.
func TestParseLevelsErrors(t *testing.T) {
	before := searchesRun.Load()
	_, err := ParseLevels("a*b, , a*x, (a*b, a*c+b, a*b:0, a*b:x, b*a")
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	require.Equal(t, []string{
		`level 1: empty expression`,
		`level 2 "a*x": unknown variable 'x' at position 3 (variables are a to h)`,
		`level 3 "(a*b": syntax error at position 5: missing ")"`,
		`level 5 "a*b:0": budget "0" after ":" is not a whole number from 1 to 16`,
		`level 6 "a*b:x": budget "x" after ":" is not a whole number from 1 to 16`,
		`… and 1 more problem`,
	}, lines, "one line per problem, at most five")
	require.Equal(t, before, searchesRun.Load(), "a spec that does not parse is not searched")
	for _, l := range lines {
		require.NotContains(t, l, "-levels", "the caller names the flag")
		require.NotContains(t, l, "flag")
	}
	_, err = ParseLevels("a*c+b, a*b+c*d:5, a:1")
	require.EqualError(t, err, strings.Join([]string{
		`level 0 "a*c+b": no program of at most 12 tokens computes it (operands are read in order a, b, c, …, each by one tool; one memory slot)`,
		`level 1 "a*b+c*d:5": no program of at most 5 tokens computes it (operands are read in order a, b, c, …, each by one tool; one memory slot); the shortest has 7`,
		`level 2 "a:1": no program of at most 1 token computes it (operands are read in order a, b, c, …, each by one tool; one memory slot); the shortest has 2`,
	}, "\n"))
	_, err = ParseLevels("  ")
	require.EqualError(t, err, "no levels")
	_, err = ParseLevels("a*b, a*b+c, a × b")
	require.EqualError(t, err, `level 2 "a × b": the same expression as level 0 (both are a*b)`)
}

func TestParseLevelIsOneLevel(t *testing.T) {
	lv, err := ParseLevel(" (a*b):4 ")
	require.NoError(t, err)
	require.Equal(t, "(a*b):4", lv.String())
	_, err = ParseLevel("a*b, a*b+c")
	require.EqualError(t, err, "one level has no comma outside parentheses (ParseLevels reads lists)")
}

// A level of one variable has 10 tuples; a salt that holds none out is refused.
func TestSplitMustHaveBothParts(t *testing.T) {
	lv := Level{Expr: mustExpr(t, "a")}
	for lv.salt = 0; ; lv.salt++ {
		if _, held := lv.splitCounts(); held == 0 {
			break
		}
	}
	require.EqualError(t, lv.checkSplit(), "its 10 digit tuples do not split into a training and a held-out part (10 and 0); use more variables")
	lv.salt = mustExpr(t, "a").functionSalt()
	require.NoError(t, lv.checkSplit())
}

// BenchmarkParseDefaultLevels is the parse-time cost of the default
// curriculum at process start: table lookups, their checks and the splits.
func BenchmarkParseDefaultLevels(b *testing.B) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		if _, err := ParseLevels(DefaultLevelsSpec); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/1e6, "MB/parse")
}

// The default curriculum costs little at every process start: no search, and
// well under 50 MB allocated (the search of a*b+c*d-e*f alone takes 250 MB).
func TestParseDefaultLevelsIsCheap(t *testing.T) {
	searches := searchesRun.Load()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ParseLevels(DefaultLevelsSpec)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(50<<20))
	require.Equal(t, searches, searchesRun.Load(), "the default levels come from the table")
}
