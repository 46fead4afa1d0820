package cluster

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseAsked(t *testing.T) {
	tr, err := parseAsked([]byte(`{"number": 4, "params": {"lr": 0.0007147889632463962, "hidden": 24, "baseline": "step", "focus": true}}`))
	require.NoError(t, err)
	require.Equal(t, 4, tr.Number)
	require.Equal(t, []string{"-baseline", "step", "-focus=true", "-hidden", "24", "-lr", "0.0007147889632463962"}, tr.Flags)
	for _, bad := range []string{`{"params": {}}`, `not json`, `{"number": 1, "params": {"x": [1]}}`} {
		_, err := parseAsked([]byte(bad))
		require.Error(t, err, bad)
	}
}

func TestParseSpace(t *testing.T) {
	line, err := ParseSpace([]byte(`{"lr": {"name": "FloatDistribution", "attributes": {"low": 0.0001, "high": 0.01, "log": true}}}`), []string{"report"})
	require.NoError(t, err)
	require.Equal(t, `{"lr":{"name":"FloatDistribution","attributes":{"low":0.0001,"high":0.01,"log":true}}}`, line)
	for _, bad := range []string{
		`{}`, `[]`, `{"lr": 1}`,
		`{"-lr": {"name": "FloatDistribution", "attributes": {"low": 1, "high": 2}}}`,
		`{"report": {"name": "CategoricalDistribution", "attributes": {"choices": ["a"]}}}`,
		`{"lr": {"name": "Float", "attributes": {"low": 1, "high": 2}}}`,
		`{"lr": {"name": "FloatDistribution"}}`,
		`{"lr": {"name": "FloatDistribution", "attributes": {}, "extra": 1}}`,
	} {
		_, err := ParseSpace([]byte(bad), []string{"report"})
		require.Error(t, err, bad)
	}
}
