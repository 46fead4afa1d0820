package calc

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/simdrl/simdrl/internal/testsize"
	"github.com/stretchr/testify/require"
)

// A spec that is too long or has too many levels is refused with one line
// before anything is parsed or searched (250 000 levels of h*h once took
// 1.46 GB).
func TestSpecSizeIsCheckedFirst(t *testing.T) {
	before := searchesRun.Load()
	huge := strings.Repeat("h*h,", 250_000)
	_, err := ParseLevels(huge)
	require.EqualError(t, err, fmt.Sprintf("the levels are %d bytes long; at most %d", len(huge), MaxSpecBytes))

	many := strings.TrimSuffix(strings.Repeat("a*b:x,", MaxLevels+1), ",")
	_, err = ParseLevels(many)
	require.EqualError(t, err, fmt.Sprintf("%d levels; at most %d", MaxLevels+1, MaxLevels))

	_, err = CanonicalSpec(huge)
	require.Error(t, err)
	require.Equal(t, before, searchesRun.Load())
}

// Many bad levels give a few lines, not one per level.
func TestManyBadLevelsGiveAShortError(t *testing.T) {
	bad := strings.TrimSuffix(strings.Repeat("a*x,", MaxLevels), ",")
	_, err := ParseLevels(bad)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, maxProblems+1)
	require.Equal(t, fmt.Sprintf("… and %d more problems", MaxLevels-maxProblems), lines[maxProblems])

	_, err = ParseLevels(strings.TrimSuffix(strings.Repeat("a*x,", 1000), ","))
	require.EqualError(t, err, fmt.Sprintf("1000 levels; at most %d", MaxLevels))
}

// Short expressions that no program computes once searched for seconds and
// more than a gigabyte; the search now stops at its cap with a clear line.
func TestSearchStopsAtItsCap(t *testing.T) {
	_, stats, err := parseLevels("a*a+h-h", ParseOptions{})
	require.EqualError(t, err, fmt.Sprintf(`level 0 "a*a+h-h": the search for a shortest program visited %d states, the most one search may, without finding one of at most 12 tokens; give a smaller expression or a smaller explicit :budget`, MaxSearchStates))
	require.Equal(t, MaxSearchStates, stats.maxStates)

	// Remembered: the same function again costs no search.
	_, stats, err = parseLevels("a*a+(h-h)", ParseOptions{})
	require.Error(t, err)
	require.Zero(t, stats.searches)

	// One level repeated is a duplicate, refused before any search.
	_, stats, err = parseLevels(strings.TrimSuffix(strings.Repeat("h*h,", 10), ","), ParseOptions{})
	require.ErrorContains(t, err, `level 1 "h*h": the same expression as level 0`)
	require.Zero(t, stats.searches)
}

// Together the searches of one spec stop at MaxCurriculumStates.
func TestSpecSearchesStopAtTheCurriculumCap(t *testing.T) {
	if !testsize.Long() {
		t.Skip("six capped searches, a minute on two cores: SIMDRL_TEST_LONG=1 runs them (CI does)")
	}
	_, stats, err := parseLevels("f*f, g*g, h*h, b*b+h, c*c+h, d*d+h", ParseOptions{})
	require.Error(t, err)
	require.LessOrEqual(t, stats.states, MaxCurriculumStates)
	require.LessOrEqual(t, stats.maxStates, MaxSearchStates)
	require.Contains(t, err.Error(), fmt.Sprintf("the most they may (%d); give fewer or smaller levels", MaxCurriculumStates))
	require.LessOrEqual(t, len(strings.Split(err.Error(), "\n")), maxProblems+1)
}

// TestInterruptStopsTheSearch: an interrupt that comes while a search runs
// stops it at its next check. It comes from the search's first progress
// report (progressEvery 0: one at every check), not after a delay that a
// loaded machine, or a search remembered from earlier, could outrun.
func TestInterruptStopsTheSearch(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 0
	stop := make(chan struct{})
	var once sync.Once
	interrupt := func(string) { once.Do(func() { close(stop) }) }
	before := StatesVisited()
	_, err := ParseLevelsWith("g*g+a", ParseOptions{Interrupt: stop, Progress: interrupt})
	require.ErrorIs(t, err, ErrInterrupted)
	require.EqualError(t, err, `level 0 "g*g+a": interrupted`)
	require.Less(t, StatesVisited()-before, int64(MaxSearchStates), "stopped by the interrupt, before its cap")
	_, ok := recall(mustExpr(t, "g*g+a"), MaxSearchLen)
	require.False(t, ok, "an interrupted search is not remembered")

	// Closed before the search: it stops at its first check, after one
	// expansion (the work, not the time, is what a test can bound).
	closed := make(chan struct{})
	close(closed)
	before = StatesVisited()
	_, err = ParseLevelsWith("h*h+b", ParseOptions{Interrupt: closed})
	require.ErrorIs(t, err, ErrInterrupted)
	require.LessOrEqual(t, StatesVisited()-before, int64(ANS-FirstTool+2))
}

func TestProgressReportsARunningSearch(t *testing.T) {
	var lines []string
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = time.Millisecond
	limits := searchLimits{states: 20_000, progress: func(states int, elapsed time.Duration) {
		lines = append(lines, fmt.Sprint(states))
	}}
	r, err := newSearcher(mustExpr(t, "f*f"), nil, limits).run(MaxSearchLen)
	require.NoError(t, err)
	require.True(t, r.Capped)
	require.Equal(t, 20_000, r.States)
	require.NotEmpty(t, lines)
	require.Equal(t, "12.3k", humanCount(12_345))
	require.Equal(t, "1.2M", humanCount(1_234_567))
}

func TestProgressLine(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 20 * time.Millisecond
	var lines []string
	_, err := ParseLevelsWith("a*b, e*e+h", ParseOptions{Progress: func(msg string) { lines = append(lines, msg) }})
	require.Error(t, err)
	require.NotEmpty(t, lines, "a capped search runs for a few hundred milliseconds")
	require.Regexp(t, `^searching level 1 e\*e\+h: [0-9.]+k states, [0-9.]+ s$`, lines[0])
}

// The same function is searched once per process, whatever its spelling.
func TestSearchesAreRemembered(t *testing.T) {
	_, stats, err := parseLevels("a*b+c*d+e", ParseOptions{})
	require.NoError(t, err)
	require.Equal(t, 1, stats.searches)
	ls, stats, err := parseLevels("e+(c*d+b*a), c", ParseOptions{})
	require.NoError(t, err)
	require.Equal(t, 1, stats.searches, "only c is new")
	require.Len(t, ls[0].Shortest, 8)
	require.True(t, Computes(ls[0].Expr, ls[0].Shortest))
}

func TestParenthesesNestingIsBounded(t *testing.T) {
	_, err := ParseExpr(strings.Repeat("(", 100) + "a" + strings.Repeat(")", 100))
	require.EqualError(t, err, `syntax error at position 65: parentheses nested more than 64 deep`)
	_, err = ParseExpr(strings.Repeat("(", 64) + "a" + strings.Repeat(")", 64))
	require.NoError(t, err)
}

func TestErrInterruptedIsASentinel(t *testing.T) {
	require.True(t, errors.Is(fmt.Errorf("x: %w", ErrInterrupted), ErrInterrupted))
}
