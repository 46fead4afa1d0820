package cli

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// corpusDir is the corrupt-checkpoint corpus (written by its gen.go; its
// README lists what is wrong with each file).
const corpusDir = "../testdata/checkpoints"

// corruptCases covers every file of the corpus, and nothing else. want is a
// substring of the one line the command must print (exit 2); ok marks the
// valid file (exit 0). load: -eval-only -load must refuse the file too;
// -load takes only the weights (and checks Adam's moments and the training
// state when the file has them), so it is not run on files whose tensors and
// state are sound (broken format or config, no state, extra tensors).
var corruptCases = []struct {
	file string
	want string
	load bool
	ok   bool
}{
	{file: "valid.safetensors", ok: true},

	{"empty.safetensors", "truncated file: 0 bytes", true, false},
	{"truncated-length.safetensors", "truncated file: 5 bytes, less than the 8-byte header length", true, false},
	{"truncated-header.safetensors", "truncated file: header length", true, false},
	{"truncated-data.safetensors", "tensor optimizer.exp_avg_sq.v.weight has data_offsets [3568, 3584] out of range (data buffer of 3578 bytes)", true, false},
	{"header-length-huge.safetensors", "header length 4611686018427387904 is absurd", true, false},
	{"header-length-past-end.safetensors", "truncated file: header length", true, false},
	{"header-length-short.safetensors", "unexpected EOF", true, false},
	{"header-length-long.safetensors", "header is not valid UTF-8", true, false},
	{"trailing-bytes.safetensors", "4 trailing bytes after tensor optimizer.exp_avg_sq.v.bias", true, false},

	{"header-flip-utf8.safetensors", "header is not valid UTF-8", true, false},
	{"header-flip-json.safetensors", "header: not valid JSON: invalid character '#'", true, false},
	{"header-flip-offset.safetensors", "tensor emb.weight has shape [18 4] (72 float32 = 288 bytes) but data_offsets [0, 388] span 388 bytes", true, false},

	{"offsets-overlap.safetensors", "tensor stage_emb.weight (bytes 284..332) overlaps tensor emb.weight (bytes 0..288)", true, false},
	{"offsets-past-end.safetensors", "tensor optimizer.exp_avg_sq.v.bias has data_offsets [3588, 3592] out of range (data buffer of 3588 bytes)", true, false},
	{"offsets-gap.safetensors", "gap of 4 bytes between tensor optimizer.exp_avg_sq.v.weight", true, false},
	{"offsets-reversed.safetensors", "tensor emb.weight has data_offsets [288, 0] out of range", true, false},
	{"dtype-f16.safetensors", "tensor emb.weight has dtype F16; simdrl checkpoints hold F32", true, false},
	{"dtype-newline.safetensors", `tensor v.bias has dtype "F3\n2"`, true, false},
	{"shape-offset-mismatch.safetensors", "tensor emb.weight has shape [18 5] (90 float32 = 360 bytes) but data_offsets [0, 288] span 288 bytes", true, false},
	{"shape-transposed.safetensors", "checkpoint tensor emb.weight has shape [4 18], this model needs [18 4]", true, false},
	{"tensor-missing.safetensors", "checkpoint has no tensor rnn.weight_hh_l0", true, false},
	{"tensor-missing-moment.safetensors", "checkpoint has no tensor optimizer.exp_avg_sq.pi.weight", true, false},
	{"tensor-duplicate.safetensors", "duplicate tensor pi.bias", true, false},
	{"tensor-extra.safetensors", `checkpoint has an unexpected tensor "rnn.weight_hh_l1"`, false, false},
	{"tensor-name-newline.safetensors", `tensor name "v\nweight" holds a non-printable character`, true, false},
	{"metadata-not-string.safetensors", `metadata key "update" has a non-string value (a number)`, true, false},

	{"nan-weight.safetensors", "checkpoint tensor rnn.weight_hh_l0 holds a non-finite value (NaN at index 9)", true, false},
	{"inf-weight.safetensors", "checkpoint tensor pi.bias holds a non-finite value (+Inf at index 3)", true, false},
	{"neg-inf-weight.safetensors", "checkpoint tensor emb.weight holds a non-finite value (-Inf at index 40)", true, false},
	{"nan-exp-avg.safetensors", "checkpoint tensor optimizer.exp_avg.rnn.weight_ih_l0 holds a non-finite value (NaN at index 7)", true, false},
	{"inf-exp-avg-sq.safetensors", "checkpoint tensor optimizer.exp_avg_sq.v.weight holds a non-finite value (+Inf at index 2)", true, false},
	{"negative-exp-avg-sq.safetensors", "checkpoint tensor optimizer.exp_avg_sq.pi.bias holds a negative value (-0.25 at index 1)", true, false},

	{"format-wrong.safetensors", `not a simdrl checkpoint (format "simdrl-checkpoint/3", want "simdrl-checkpoint/1" or "simdrl-checkpoint/2")`, false, false},
	{"format-missing.safetensors", `not a simdrl checkpoint (format ""`, false, false},
	{"config-missing.safetensors", `checkpoint has no config`, false, false},
	{"config-broken.safetensors", "checkpoint config: not valid JSON: unexpected EOF", false, false},
	{"config-hidden-zero.safetensors", "checkpoint config: hidden must be in 1..4096, got 0", false, false},
	{"config-hidden-mismatch.safetensors", "checkpoint tensor emb.weight has shape [18 4], this model needs [18 8] (the checkpoint's model is 4 wide, this run's 8: check -hidden)", false, false},
	{"config-batch-negative.safetensors", "checkpoint config: batch must be in 1..16777216, got -1", false, false},
	{"config-unknown-field.safetensors", `checkpoint config: unknown field "hiddne"`, false, false},
	{"config-missing-field.safetensors", "checkpoint config: no field entropy_final", false, false},
	{"config-duplicate-field.safetensors", "checkpoint config: duplicate field hidden", false, false},
	{"config-recipe-unknown.safetensors", `checkpoint config: unknown recipe "fast"`, false, false},
	{"state-missing.safetensors", "checkpoint has no training state", false, false},
	{"state-broken.safetensors", "checkpoint state: not valid JSON: value of \"last_solve_rate\": unexpected EOF", true, false},
	{"state-unlocked-out-of-range.safetensors", "checkpoint state: unlocked 7 is out of range 1..3", true, false},
	{"state-update-negative.safetensors", "checkpoint state: update -2 is negative", true, false},
	{"state-missing-field.safetensors", "checkpoint state: no field update", true, false},
	{"state-solve-rate-out-of-range.safetensors", "checkpoint state: last_solve_rate[1] 1.5 is out of range 0..1", true, false},
	{"state-adam-step-disagrees.safetensors", "checkpoint state: adam_step 5 disagrees with update 2", true, false},
	{"metadata-update-lies.safetensors", `checkpoint metadata update "7" disagrees with the state's update 2`, true, false},
}

// runGuarded is runCLI, failing the test (instead of crashing it) on a panic.
func runGuarded(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("simdrl %s panicked: %v\n%s", strings.Join(args, " "), r, debug.Stack())
		}
	}()
	return runCLI(args...)
}

// TestCorruptCheckpointsAreRefused runs `simdrl -eval-only -load F` and
// `simdrl -resume F` on every file of the corpus: the valid one loads (exit
// 0), every other is refused with exit 2 and exactly one line that starts
// with "simdrl: " and says what is wrong.
func TestCorruptCheckpointsAreRefused(t *testing.T) { checkCorpus(t) }

// TestCorruptCheckpointsAreRefusedOnCuda: the same with -device cuda, whose
// engine reads checkpoints through the same trainer functions.
func TestCorruptCheckpointsAreRefusedOnCuda(t *testing.T) {
	needGPU(t)
	checkCorpus(t, "-device", "cuda")
}

// checkCorpus runs the corpus test with extra flags on every command line.
func checkCorpus(t *testing.T, extra ...string) {
	onDisk, err := filepath.Glob(filepath.Join(corpusDir, "*.safetensors"))
	require.NoError(t, err)
	var files, listed []string
	for _, p := range onDisk {
		files = append(files, filepath.Base(p))
	}
	for _, c := range corruptCases {
		listed = append(listed, c.file)
	}
	slices.Sort(files)
	slices.Sort(listed)
	require.Equal(t, files, listed, "every file of %s needs a case in corruptCases, and every case a file (go run ./testdata/checkpoints/gen.go writes them)", corpusDir)

	// The weights-only path takes its model from the flags: the corpus's size.
	loadFlags := []string{"-hidden", "4", "-batch", "16", "-chunk", "16", "-eval-batch", "8", "-final-episodes", "8", "-explain", "0", "-threads", "1"}
	for _, c := range corruptCases {
		t.Run(strings.TrimSuffix(c.file, ".safetensors"), func(t *testing.T) {
			path := filepath.Join(corpusDir, c.file)
			modes := map[string][]string{"-resume": {"-resume", path, "-threads", "1"}}
			if c.ok || c.load {
				modes["-load"] = append([]string{"-eval-only", "-load", path}, loadFlags...)
			}
			for mode, args := range modes {
				code, stdout, stderr := runGuarded(t, append(args, extra...)...)
				if c.ok {
					require.Equalf(t, 0, code, "%s: %s", mode, stderr)
					require.Contains(t, stdout, "Final greedy solve rates", mode)
					continue
				}
				require.Equalf(t, 2, code, "%s: want exit 2, stderr %q", mode, stderr)
				require.Truef(t, strings.HasPrefix(stderr, "simdrl: "+mode), "%s: %q", mode, stderr)
				require.Equalf(t, 1, strings.Count(stderr, "\n"), "%s: want one line, got %q", mode, stderr)
				require.True(t, strings.HasSuffix(stderr, "\n"), mode)
				require.Containsf(t, stderr, c.want, "%s: the line must say what is wrong", mode)
				require.NotContains(t, stderr, "goroutine", mode)
				require.NotContains(t, stderr, "{", "%s: no raw Go struct or JSON in the message", mode)
			}
		})
	}
}

// TestCorpusIsUpToDate: rerunning the corpus generator changes nothing.
func TestCorpusIsUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles and runs the generator; covered by the full test run")
	}
	cmd := exec.Command("go", "run", filepath.Join(corpusDir, "gen.go"), "-check", "-dir", corpusDir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}
