package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/stretchr/testify/require"
)

// evalConfig evaluates a checkpoint (-eval-only) with args on top and
// returns the config its report records.
func evalConfig(t *testing.T, args ...string) map[string]any {
	t.Helper()
	rep := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := runCLI(append(append([]string{}, args...), "-eval-only", "-final-episodes", "0", "-explain", "0", "-report", rep)...)
	require.Equal(t, 0, code, stderr)
	cfg := readReport(t, rep)["config"].(map[string]any)
	delete(cfg, "threads")
	return cfg
}

// TestRestatingTheSavedTaskChangesNothing: -resume e.st -task expr ran the
// expr task with an empty spec (forward order, no partial credit), and
// -task calc reset a calc run's levels. A flag equal to the saved value
// changes nothing.
func TestRestatingTheSavedTaskChangesNothing(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name  string
		train []string
		same  [][]string // under -resume and -load
		saved [][]string // under -resume (-load takes the recipe's partial credit)
	}{
		{"expr.st", []string{"-task", "expr", "-hidden", "16"}, [][]string{{"-task", "expr"}}, nil},
		{"forward.st", []string{"-task", "expr", "-hidden", "16", "-task-spec", "leaves=3"}, [][]string{{"-task", "expr"}}, nil},
		{"expr4.st", []string{"-task", "expr", "-hidden", "16", "-task-spec", "leaves=4; order=reversed; partial_credit=0.3"},
			[][]string{{"-task", "expr"}, {"-task-spec", "leaves=4; order=reversed; partial_credit=0.3"}}, nil},
		{"calc.st", []string{"-task", "calc", "-hidden", "16", "-levels", "a*b, a*b+c*d", "-partial-credit", "0.5"},
			[][]string{{"-task", "calc"}, {"-task", "calc", "-levels", "a*b, a*b+c*d"}, {"-levels", "a*b, a*b+c*d"}, {"-levels", "(b*a), a*b+c*d"}},
			[][]string{{"-partial-credit", "0.5"}, {"-task-spec", "partial_credit=0.5; levels=a*b,a*b+c*d"}}},
	}
	for _, c := range cases {
		ck := saveRun(t, dir, c.name, c.train...)
		trained := evalConfig(t, "-resume", ck)["task_spec"]
		for _, load := range []string{"-resume", "-load"} {
			want := evalConfig(t, load, ck)
			if c.saved == nil { // -load reads the model's task as it was trained (a calc run takes the recipe's credit)
				require.Equal(t, trained, want["task_spec"], "%s %s", load, c.name)
			}
			same := c.same
			if load == "-resume" {
				same = append(same, c.saved...)
			}
			for _, same := range same {
				got := evalConfig(t, append([]string{load, ck}, same...)...)
				require.Equal(t, want, got, "%s %s %v", load, c.name, same)
			}
		}
	}
}

// TestCalcFlagsRefusedOnOtherTasks: -partial-credit 0 and -levels ”
// rewrote the expr task's spec into a calc one ("": forward order, no
// partial credit, 6 leaves). Any explicit value of a calc flag on another
// task is refused.
func TestCalcFlagsRefusedOnOtherTasks(t *testing.T) {
	dir := t.TempDir()
	ck := saveRun(t, dir, "e3.st", "-task", "expr", "-hidden", "16", "-task-spec", "leaves=3; order=reversed")
	for _, args := range [][]string{
		{"-task", "expr", "-partial-credit", "0", "-updates", "0"},
		{"-task", "expr", "-levels", "", "-updates", "0"},
		{"-task", "seed", "-levels", "", "-updates", "0"},
		{"-task", "seed", "-partial-credit", "0", "-updates", "0"},
		{"-load", ck, "-eval-only", "-levels", ""},
		{"-resume", ck, "-eval-only", "-partial-credit", "0"},
	} {
		flag := "-levels"
		if strings.Contains(strings.Join(args, " "), "-partial-credit") {
			flag = "-partial-credit"
		}
		requireUsage(t, flag+" applies to the calc task", args...)
	}
}

// TestSpecErrorsNameTheSpec: -task-spec leaves=9 said "-leaves: …", a flag
// that does not exist. Spec keys are named as options of -task-spec (or of
// the checkpoint's task_spec); calc's -levels and -partial-credit still name
// themselves when they were the flags given.
func TestSpecErrorsNameTheSpec(t *testing.T) {
	for _, c := range []struct {
		want string
		args []string
	}{
		{"-task-spec: leaves: must be in 2..7, got 9", []string{"-task", "expr", "-task-spec", "leaves=9"}},
		{"-task-spec: split: ", []string{"-task", "expr", "-task-spec", "split=sideways"}},
		{"-task-spec: order: ", []string{"-task", "expr", "-task-spec", "order=backwards"}},
		{"-task-spec: partial_credit: must be in [0, 10]", []string{"-task", "expr", "-task-spec", "partial_credit=11"}},
		{"-task-spec: observe: ", []string{"-task", "calc", "-task-spec", "observe=maybe"}},
		{"-task-spec: levels: ", []string{"-task", "calc", "-task-spec", "levels=a*"}},
		{"-levels: ", []string{"-task", "calc", "-levels", "a*"}},
		{"-partial-credit: must be in [0, 10]", []string{"-task", "calc", "-partial-credit", "11"}},
	} {
		code, _, stderr := runCLI(append(c.args, "-updates", "0")...)
		require.Equal(t, 2, code, "%v: %s", c.args, stderr)
		require.Contains(t, stderr, c.want, "%v", c.args)
		require.NotRegexp(t, `-(leaves|split|order|observe)\b`, stderr, "%v: names a flag that does not exist", c.args)
	}
}

// TestResumeNamesTheFlagThatChangedTheTask: a flag that changes what a
// checkpoint was trained with was reported as a damaged checkpoint (its
// last evaluation, its item state) or as -hidden. The line names the flag
// and what the file was trained with.
func TestResumeNamesTheFlagThatChangedTheTask(t *testing.T) {
	dir := t.TempDir()
	ck := saveRun(t, dir, "expr.st", "-task", "expr", "-hidden", "16")
	// leaves=2 solves some expressions within 40 updates: its replay buffer is not empty
	replayed := saveRun(t, dir, "replay.st", "-task", "expr", "-task-spec", "leaves=2", "-hidden", "16", "-replay", "4", "-updates", "40")
	for _, c := range []struct {
		flag string
		ck   string
		args []string
	}{
		{"-task-spec", ck, []string{"-task-spec", "leaves=5"}},
		{"-item-focus", ck, []string{"-item-focus=false"}},
		{"-replay", replayed, []string{"-replay", "0"}},
	} {
		code, _, stderr := runCLI(append([]string{"-resume", c.ck, "-updates", "100"}, c.args...)...)
		require.Equal(t, 2, code, "%v: %s", c.args, stderr)
		require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
		require.Regexp(t, `^simdrl: -resume \S+: `+c.flag+` .*: the checkpoint was trained with `, stderr, "%v: names the flag first, not the file", c.args)
	}
	calc := saveRun(t, dir, "calc.st", "-task", "calc", "-hidden", "16", "-levels", "a*b, a*b+c*d")
	code, _, stderr := runCLI("-load", calc, "-eval-only", "-task", "calc", "-task-spec", "levels=a*b, a*b+c*d; observe=on")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "observe", stderr)
	require.NotContains(t, stderr, "check -hidden", stderr)
}

// TestOddSpellingsAreRefused: leaves=0 was taken as 6 (and stored as 0),
// +7 and 07 as 7; -context ” as bag. -levels ” was the default curriculum
// while ' ' meant none.
func TestOddSpellingsAreRefused(t *testing.T) {
	for _, c := range []struct {
		want string
		args []string
	}{
		{"leaves: must be in 2..7, got 0", []string{"-task", "expr", "-task-spec", "leaves=0"}},
		{`leaves: "+7" is not a whole number`, []string{"-task", "expr", "-task-spec", "leaves=+7"}},
		{`leaves: "07" is not a whole number`, []string{"-task", "expr", "-task-spec", "leaves=07"}},
		{`-context must be bag or read, got ""`, []string{"-context", ""}},
	} {
		requireUsage(t, c.want, append(c.args, "-updates", "0")...)
	}
	// -levels '' and ' ' are both the default curriculum, as "levels= " is in a spec.
	def := evalFresh(t, "-task", "calc")
	for _, levels := range []string{"", " ", "\t"} {
		require.Equal(t, def, evalFresh(t, "-task", "calc", "-levels", levels), "-levels %q", levels)
	}
}

// TestNothingToTrainNamesTheSpec: split=length holds out the largest size,
// so with leaves=2 no level trains; the line blamed -stages, which was
// never given.
func TestNothingToTrainNamesTheSpec(t *testing.T) {
	code, _, stderr := runCLI("-task", "expr", "-task-spec", "split=length; leaves=2", "-updates", "0")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "-task-spec", stderr)
	require.NotContains(t, stderr, "-stages", stderr)
}

// TestLevelNumbersStartAtZero: -levels errors counted levels from 1, every
// other message (-stages, reports) from 0.
func TestLevelNumbersStartAtZero(t *testing.T) {
	requireUsage(t, `level 1 "a*"`, "-task", "calc", "-levels", "a*b, a*", "-updates", "0")
	requireUsage(t, "the same expression as level 0", "-task", "calc", "-levels", "a*b+c*d, (a*b)+(c*d)", "-updates", "0")
}

// TestCheckpointConfigErrorsAdviseNoFlag: a checkpoint's config whose steps
// are below a level's budget said "raise -steps" as if a flag had set it.
func TestCheckpointConfigErrorsAdviseNoFlag(t *testing.T) {
	dir := t.TempDir()
	ck := saveRun(t, dir, "calc.st", "-task", "calc", "-hidden", "16", "-levels", "a*b, a*b+c*d")
	bad := withConfig(t, ck, func(cfg map[string]any) { cfg["steps"] = 8 })
	code, _, stderr := runCLI("-resume", bad, "-eval-only")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "checkpoint config: steps 8 is below level 1's budget", stderr)
	require.NotContains(t, stderr, "raise -steps", stderr)
	// From the command line the advice stays.
	requireUsage(t, "raise -steps", "-task", "calc", "-levels", "a*b, a*b+c*d", "-steps", "8", "-updates", "0")
}

// withConfig writes a copy of checkpoint ck whose config is changed by edit.
func withConfig(t *testing.T, ck string, edit func(map[string]any)) string {
	f, err := checkpoint.ReadFile(ck)
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal([]byte(f.Metadata["config"]), &cfg))
	edit(cfg)
	raw, err := json.Marshal(cfg)
	require.NoError(t, err)
	f.Metadata["config"] = string(raw)
	p := ck + ".edited"
	require.NoError(t, checkpoint.WriteFile(p, f))
	return p
}

// evalFresh is the config a fresh run with args records.
func evalFresh(t *testing.T, args ...string) map[string]any {
	t.Helper()
	rep := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := runCLI(append(append([]string{}, args...), "-updates", "0", "-final-episodes", "0", "-explain", "0", "-report", rep)...)
	require.Equal(t, 0, code, stderr)
	cfg := readReport(t, rep)["config"].(map[string]any)
	delete(cfg, "threads")
	return cfg
}
