package cli

import (
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/trainer"
	flag "github.com/spf13/pflag"
	"github.com/stretchr/testify/require"
)

// base is a tiny run that every property case varies one flag of.
var base = []string{"-updates", "2", "-batch", "8", "-chunk", "4", "-threads", "2", "-eval-every", "1", "-eval-batch", "4",
	"-final-episodes", "4", "-explain", "1", "-quiet"}

// flagBoundaries lists every numeric flag at its boundaries and a few values
// past them.
var flagBoundaries = map[string][]string{
	"threads":        {"1", "2", "4096", "4097", "0", "-1", "1e3"},
	"seed":           {"0", "18446744073709551615", "18446744073709551616", "-1"},
	"updates":        {"0", "1", "1073741824", "1073741825", "-1"},
	"partial-credit": {"0", "10", "10.5", "-0.1", "NaN"},
	"batch":          {"1", "2", "16777216", "16777217", "0", "-1"},
	"lr":             {"1e-300", "10", "10.000001", "0", "-1e-3", "NaN", "Inf", "1e400"},
	"hidden":         {"1", "2", "6", "4096", "4097", "0", "-1"},
	"steps":          {"1", "64", "65", "256", "257", "0"},
	"exhaustive":     {"0", "1", "20000", "20001", "-1"},
	"entropy-coef":   {"0", "1000", "1000.5", "-1e-9", "NaN"},
	"value-coef":     {"0", "1000", "1000.5", "-1", "NaN"},
	"clip":           {"1e-30", "1e30", "1e31", "0", "NaN", "-Inf"},
	"eval-every":     {"0", "1", "2147483647", "-1"},
	"eval-batch":     {"1", "16777216", "16777217", "0"},
	"final-episodes": {"0", "1", "16777216", "16777217", "-1"},
	"explain":        {"0", "1", "10000", "10001", "-1"},
	"chunk":          {"1", "3", "9223372036854775807", "0", "-1"},
	"unlock-at":      {"0", "1", "1.0001", "-0.0001", "NaN"},
	"entropy-final":  {"-1e300", "-1", "1000", "1001", "NaN"},
	"stop-at":        {"0", "1", "1.01", "-0.01", "NaN"},
	"stop-from":      {"0", "1", "1073741824", "1073741825", "-1"},
	"replay":         {"0", "1", "16777216", "16777217", "-1"},
	"replay-coef":    {"0", "1000", "1000.5", "-1", "NaN"},
	"save-every":     {"0", "-1", "1"},
	"group":          {"0", "1", "2", "4", "3", "8", "16777216", "16777217", "-1"},

	"entropy-updates": {"0", "1", "1073741824", "1073741825", "-1"},
	"ppo-epochs":      {"0", "1", "1000", "1001", "-1"},
	"ppo-minibatches": {"0", "1", "16777216", "16777217", "-1"},
	"clip-coef":       {"0", "10", "10.5", "-0.1", "NaN"},
	"gae-lambda":      {"0", "1", "1.01", "-0.01", "NaN"},
	"gamma":           {"0", "1", "1.01", "-0.01", "NaN"},
	// The sampled evaluation (evaluation flags: not in the config).
	"eval-samples":     {"0", "1", "3", "16777217", "-1"},
	"eval-pass-k":      {"0", "1", "2", "-1"},
	"eval-temperature": {"1e-300", "0.5", "100", "100.5", "0", "-1", "NaN", "Inf"},
}

// checkCommandLine runs args in-process and requires success or a one-line
// usage error, never a panic. A configuration too long to run here is built
// and closed (memory checked, nothing trained), and the heap New allocates
// stays within cpu.Memory's estimate.
func checkCommandLine(t *testing.T, args []string) {
	t.Helper()
	var cfg trainer.Config
	var err error
	require.NotPanicsf(t, func() { cfg, err = parseFlags(args, nil) }, "%v", args)
	if err != nil {
		code, _, stderr := runCLI(args...)
		require.Equalf(t, 2, code, "%v: %s", args, stderr)
		requireOneUsageLine(t, args, stderr)
		return
	}
	need, _ := cpu.Memory(cfg)
	require.Falsef(t, math.IsNaN(need) || need <= 0, "%v: memory estimate %v", args, need)
	episodes := float64(cfg.Updates)*float64(cfg.Batch) + 3*float64(cfg.FinalEpisodes+cfg.Explain)
	if cfg.EvalEvery > 0 {
		episodes += float64(cfg.Updates/cfg.EvalEvery) * 3 * float64(cfg.EvalBatch)
	}
	if episodes*float64(cfg.Steps)*float64(cfg.Hidden) > 5e7 || need > 256<<20 {
		if need > 256<<20 {
			return // the estimate is all that can be checked here without taking the memory
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var tr *cpu.Engine
		require.NotPanicsf(t, func() { tr, err = cpu.New(cfg) }, "%v", args)
		if err != nil {
			var re *trainer.ResourceError
			require.ErrorAsf(t, err, &re, "%v: a valid configuration refused by New: %v", args, err)
			return
		}
		runtime.ReadMemStats(&after)
		tr.Close()
		require.LessOrEqualf(t, float64(after.TotalAlloc)-float64(before.TotalAlloc), need, "%v: beyond the estimate", args)
		return
	}
	var code int
	var stderr string
	require.NotPanicsf(t, func() { code, _, stderr = runCLI(args...) }, "%v", args)
	if code == 2 {
		requireOneUsageLine(t, args, stderr)
		return
	}
	require.Equalf(t, 0, code, "%v: %s", args, stderr)
}

func requireOneUsageLine(t *testing.T, args []string, stderr string) {
	t.Helper()
	require.Truef(t, strings.HasPrefix(stderr, "simdrl: "), "%v: %q", args, stderr)
	require.Equalf(t, 1, strings.Count(stderr, "\n"), "%v: want one line, got %q", args, stderr)
	require.NotContains(t, stderr, "goroutine")
}

// TestFlagBoundaries: every numeric flag at its boundaries and past them.
func TestFlagBoundaries(t *testing.T) {
	for name, values := range flagBoundaries {
		for _, v := range values {
			args := append(append([]string{}, base...), "-"+name, v)
			if name == "save-every" {
				args = append(args, "-save", t.TempDir()+"/c.safetensors")
			}
			t.Run(name+"="+v, func(t *testing.T) { checkCommandLine(t, args) })
		}
	}
}

// TestBoundariesCoverEveryNumericFlag: a numeric flag added later must get
// its boundaries here.
func TestBoundariesCoverEveryNumericFlag(t *testing.T) {
	fs, _ := newFlagSet()
	fs.VisitAll(func(f *flag.Flag) {
		switch f.Value.Type() {
		case "int", "uint64", "float64":
			require.Containsf(t, flagBoundaries, f.Name, "flag -%s has no boundary cases", f.Name)
		}
	})
}

// FuzzCommandLine runs small combinations of the sizes and curricula.
func FuzzCommandLine(f *testing.F) {
	f.Add(uint8(8), uint8(4), uint8(3), uint8(6), uint8(2), uint8(4), uint8(1), "0,1,2", "mixed")
	f.Add(uint8(1), uint8(9), uint8(1), uint8(1), uint8(1), uint8(1), uint8(0), "2", "blocks")
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), ",", "x")
	f.Add(uint8(5), uint8(2), uint8(7), uint8(64), uint8(3), uint8(7), uint8(2), "0,0,1", "mixed")
	f.Fuzz(func(t *testing.T, batch, chunk, hidden, steps, threads, evalBatch, explain uint8, levels, curriculum string) {
		args := []string{"-updates", "1", "-eval-every", "1", "-final-episodes", "3", "-quiet",
			"-batch", strconv.Itoa(int(batch)), "-chunk", strconv.Itoa(int(chunk)), "-hidden", strconv.Itoa(int(hidden)),
			"-steps", strconv.Itoa(int(steps)), "-threads", strconv.Itoa(int(threads)), "-eval-batch", strconv.Itoa(int(evalBatch)),
			"-explain", strconv.Itoa(int(explain)), "-stages", levels, "-curriculum", curriculum}
		if strings.ContainsAny(levels+curriculum, "\x00") {
			return // not a command-line argument
		}
		checkCommandLine(t, args)
	})
}
