package sweep

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRunsExpandGridDrawsAndSeeds(t *testing.T) {
	s, err := ParseSpec([]byte(`
base: {task: calc, updates: 100, mask-after-answer: true}
grid: {entropy-updates: [1000, 2000], lr: [1e-3]}
random:
  draws: 3
  seed: 9
  axes:
    hidden: {low: 16, high: 64, int: true, log: true}
    entropy-coef: {low: 0.01, high: 0.5}
    curriculum: [blocks, mixed]
seeds: {from: 0, to: 1}
`))
	require.NoError(t, err)
	runs := s.Runs()
	require.Len(t, runs, 2*1*3*2)
	// The base first, in name order, a boolean as -flag=value; then the
	// run's values in name order, the seed among them.
	require.Equal(t, []string{"-mask-after-answer=true", "-task", "calc", "-updates", "100"}, runs[0].Args[:5])
	require.Equal(t, "0", runs[0].Values["seed"])
	require.Equal(t, "1", runs[1].Values["seed"])
	require.Equal(t, "0.001", runs[0].Values["lr"])
	require.Equal(t, "1000", runs[0].Values["entropy-updates"])
	require.Equal(t, "2000", runs[6].Values["entropy-updates"])
	draws := map[string]bool{}
	for i, r := range runs {
		h := r.Values["hidden"]
		require.Regexp(t, `^[0-9]+$`, h)
		require.True(t, len(h) == 2, h)
		require.Contains(t, []string{"blocks", "mixed"}, r.Values["curriculum"])
		draws[h+r.Values["entropy-coef"]+r.Values["curriculum"]] = true
		// Every grid point gets the same draws, in the same order.
		if i >= 6 {
			require.Equal(t, runs[i-6].Values["hidden"], h)
			require.Equal(t, runs[i-6].Values["entropy-coef"], r.Values["entropy-coef"])
		}
	}
	require.Len(t, draws, 3, "three different draws")
	again, err := ParseSpec([]byte(strings.Replace(`random: {draws: 3, seed: 9, axes: {hidden: {low: 16, high: 64, int: true, log: true}}}`, "", "", 1)))
	require.NoError(t, err)
	other, err := ParseSpec([]byte(`random: {draws: 3, seed: 10, axes: {hidden: {low: 16, high: 64, int: true, log: true}}}`))
	require.NoError(t, err)
	require.Equal(t, again.Runs(), again.Runs(), "a re-plan draws the same")
	require.NotEqual(t, again.Runs(), other.Runs(), "another seed draws others")
}

func TestSpecWithoutAxesIsOneRun(t *testing.T) {
	s, err := ParseSpec([]byte(`{"base": {"updates": 5}}`)) // JSON is YAML
	require.NoError(t, err)
	require.Equal(t, []Run{{Args: []string{"-updates", "5"}, Values: map[string]string{}}}, s.Runs())
}

func TestBadSpecsAreRefused(t *testing.T) {
	for body, want := range map[string]string{
		"":                                      "empty",
		"base: {-lr: 1}\n":                      "without dashes",
		"base: {threads: 2}\n":                  "-threads is the sweep's own",
		"base: {lr: 1}\ngrid: {lr: [1, 2]}\n":   "-lr is in both base and grid",
		"grid: {lr: [[1]]}\n":                   "not a flag's value",
		"random: {draws: 0, axes: {lr: [1]}}\n": "draws ≥ 1",
		"random: {draws: 1, axes: {lr: {low: 0, high: 1, log: true}}}\n":         "low > 0",
		"random: {draws: 1, axes: {lr: {low: 2, high: 1}}}\n":                    "not a range",
		"random: {draws: 1, axes: {hidden: {low: 1.2, high: 1.8, int: true}}}\n": "no whole number",
		"seeds: {from: 3, to: 1}\n":                                              "empty",
		"seeds: []\n":                                                            "empty",
		"seeds: {from: 0, to: 1000000}\n":                                        "more than",
		"grid: {a: [1,2,3,4,5,6,7,8,9,10], b: [1,2,3,4,5,6,7,8,9,10], c: [1,2,3,4,5,6,7,8,9,10], d: [1,2,3,4,5,6,7,8,9,10], e: [1,2,3,4,5,6,7,8,9,10], f: [1, 2]}\n": "more than",
		"seeds: {from: 0}\n": "a list",
		"base: {lr: }\n":     "missing",
	} {
		_, err := ParseSpec([]byte(body))
		require.Error(t, err, "%q", body)
		require.Contains(t, err.Error(), want, "%q", body)
	}
}

func TestManifestRoundTripAndRefusals(t *testing.T) {
	var b strings.Builder
	in := []Entry{{ID: "0123456789abcdef", Args: []string{"-seed", "1"}, Values: map[string]string{"seed": "1"}}, {ID: "fedcba9876543210", Args: []string{}}}
	require.NoError(t, WriteManifest(&b, in))
	out, err := ParseManifest(strings.NewReader(b.String() + "\n"))
	require.NoError(t, err)
	require.Equal(t, in, out)
	for body, want := range map[string]string{
		"":     "no entries",
		"{}\n": "16 hex digits",
		`{"id": "../../etc/passwd0", "args": []}`:                                                  "16 hex digits",
		`{"id": "0123456789abcdef", "args": [], "x": 1}`:                                           "unknown field",
		`{"id": "0123456789abcdef", "args": []}` + "\n" + `{"id": "0123456789abcdef", "args": []}`: "line 1's too",
		"not json\n": "line 1",
	} {
		_, err := ParseManifest(strings.NewReader(body))
		require.Error(t, err, "%q", body)
		require.Contains(t, err.Error(), want, "%q", body)
	}
}

func TestSelectAndShards(t *testing.T) {
	all, err := Select(5, -1, Shard{})
	require.NoError(t, err)
	require.Equal(t, []int{0, 1, 2, 3, 4}, all)
	one, err := Select(5, 3, Shard{})
	require.NoError(t, err)
	require.Equal(t, []int{3}, one)
	_, err = Select(5, 5, Shard{})
	require.Error(t, err)
	var union []int
	for i := 0; i < 3; i++ {
		sh, err := ParseShard(strings.Join([]string{string(rune('0' + i)), "3"}, "/"))
		require.NoError(t, err)
		part, err := Select(5, -1, sh)
		require.NoError(t, err)
		union = append(union, part...)
	}
	require.ElementsMatch(t, all, union, "the shards cover the manifest once")
	for _, bad := range []string{"3/3", "-1/2", "1", "a/b", "0/0"} {
		_, err := ParseShard(bad)
		require.Error(t, err, bad)
	}
}

func TestLockKeepsASecondHolderOff(t *testing.T) {
	d := Of(t.TempDir(), "0123456789abcdef")
	l, err := d.TryLock()
	require.NoError(t, err)
	_, err = d.TryLock() // another open file: flock sees two holders even in one process
	require.ErrorIs(t, err, ErrLocked)
	require.NoError(t, l.Unlock())
	l2, err := d.TryLock()
	require.NoError(t, err)
	require.NoError(t, l2.Unlock())
}
