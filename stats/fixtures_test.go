package stats

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The fixtures (testdata/fixtures.json) and what scripts/rliable_check.py,
// an independent numpy/scipy implementation of the paper's definitions,
// computes from them (testdata/expected.json, committed; TestExpectedIsTheScripts
// checks that the script still writes it).

type fixtures struct {
	Reps  int       `json:"reps"`
	Seed  uint64    `json:"seed"`
	Level float64   `json:"level"`
	Taus  []float64 `json:"taus"`
	Cases []struct {
		Name   string `json:"name"`
		Scores Scores `json:"scores"`
	} `json:"cases"`
	Pairs []struct{ X, Y string } `json:"pairs"`
}

// band is an interval of the script with, for each endpoint, the range that
// an independent bootstrap of as many resamples must land in (the script's
// docstring derives it: ±5 standard errors of a quantile's CDF position).
type band struct {
	Lo     float64    `json:"lo"`
	Hi     float64    `json:"hi"`
	LoBand [2]float64 `json:"lo_band"`
	HiBand [2]float64 `json:"hi_band"`
}

type expected struct {
	Reps  int     `json:"reps"`
	Level float64 `json:"level"`
	Cases []struct {
		Name      string    `json:"name"`
		IQM       float64   `json:"iqm"`
		Mean      float64   `json:"mean"`
		SD        float64   `json:"sd"`
		Min       float64   `json:"min"`
		IQMCI     band      `json:"iqm_ci"`
		MeanCI    band      `json:"mean_ci"`
		Profile   []float64 `json:"profile"`
		ProfileCI []band    `json:"profile_ci"`
	} `json:"cases"`
	Pairs []struct {
		X     string  `json:"x"`
		Y     string  `json:"y"`
		PoI   float64 `json:"poi"`
		PoICI band    `json:"poi_ci"`
	} `json:"pairs"`
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v), path)
}

func loadFixtures(t *testing.T) (fixtures, expected) {
	var fx fixtures
	var ex expected
	readJSON(t, "testdata/fixtures.json", &fx)
	readJSON(t, "testdata/expected.json", &ex)
	require.Equal(t, fx.Reps, ex.Reps)
	require.Len(t, ex.Cases, len(fx.Cases))
	require.Len(t, ex.Pairs, len(fx.Pairs))
	return fx, ex
}

const pointTol = 1e-9

// inBand checks got against the script's interval want: each endpoint
// within its Monte Carlo band.
func inBand(t *testing.T, what string, got Interval, want band) {
	t.Helper()
	const eps = 1e-12 // the two sides' float sums round differently
	if got.Lo < want.LoBand[0]-eps || got.Lo > want.LoBand[1]+eps {
		t.Errorf("%s: lower bound %v outside the script's band %v (its bound %v)", what, got.Lo, want.LoBand, want.Lo)
	}
	if got.Hi < want.HiBand[0]-eps || got.Hi > want.HiBand[1]+eps {
		t.Errorf("%s: upper bound %v outside the script's band %v (its bound %v)", what, got.Hi, want.HiBand, want.Hi)
	}
}

func TestPointEstimatesMatchTheScript(t *testing.T) {
	fx, ex := loadFixtures(t)
	for i, c := range fx.Cases {
		want := ex.Cases[i]
		require.Equal(t, c.Name, want.Name)
		flat := c.Scores.Flat()
		require.InDelta(t, want.IQM, AggregateIQM(c.Scores), pointTol, "%s: IQM", c.Name)
		require.InDelta(t, want.Mean, AggregateMean(c.Scores), pointTol, "%s: mean", c.Name)
		require.InDelta(t, want.SD, StdDev(flat), pointTol, "%s: sd", c.Name)
		require.InDelta(t, want.Min, Min(flat), pointTol, "%s: min", c.Name)
		require.InDeltaSlice(t, want.Profile, ScoreDistribution(c.Scores, fx.Taus), pointTol, "%s: profile", c.Name)
	}
	byName := map[string]Scores{}
	for _, c := range fx.Cases {
		byName[c.Name] = c.Scores
	}
	for _, p := range ex.Pairs {
		require.InDelta(t, p.PoI, ProbabilityOfImprovement(byName[p.X], byName[p.Y]), pointTol, "P(%s > %s)", p.X, p.Y)
	}
}

func TestIntervalsMatchTheScriptWithinMonteCarloError(t *testing.T) {
	fx, ex := loadFixtures(t)
	stream := uint64(0)
	boot := func() Bootstrap {
		stream++
		b := NewBootstrap(fx.Reps, fx.Seed, stream)
		b.Level = fx.Level
		return b
	}
	byName := map[string]Scores{}
	for i, c := range fx.Cases {
		byName[c.Name] = c.Scores
		want := ex.Cases[i]
		ci, err := boot().CI(c.Scores, AggregateIQM)
		require.NoError(t, err)
		inBand(t, c.Name+" IQM", ci, want.IQMCI)
		ci, err = boot().CI(c.Scores, AggregateMean)
		require.NoError(t, err)
		inBand(t, c.Name+" mean", ci, want.MeanCI)
		cis, err := boot().CIs(c.Scores, func(s Scores) []float64 { return ScoreDistribution(s, fx.Taus) })
		require.NoError(t, err)
		require.Len(t, cis, len(fx.Taus))
		for j, tau := range fx.Taus {
			inBand(t, c.Name+" profile at "+jsonNumber(tau), cis[j], want.ProfileCI[j])
		}
	}
	for _, p := range ex.Pairs {
		ci, err := boot().PairCI(byName[p.X], byName[p.Y], ProbabilityOfImprovement)
		require.NoError(t, err)
		inBand(t, "P("+p.X+" > "+p.Y+")", ci, p.PoICI)
	}
}

func jsonNumber(x float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}
