package cli

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// TestCraftedReplayBufferIsRefused: a checkpoint whose replay buffer held a
// program that does not solve its item, one that starts with a token the
// policy may never write (replay loss 3285.9), or a reward of 1e308 was
// resumed, trained on and saved again. Each is now exit 2 with one line
// naming the entry and what is wrong with it, under -resume and under
// -load, which once ignored an item state that -resume refused; so is a
// reward of 2 where the task pays at most 1.3, a NaN one, and a failure rate
// out of range. A verified entry resumes and loads.
func TestCraftedReplayBufferIsRefused(t *testing.T) {
	dir := t.TempDir()
	ck := saveRun(t, dir, "expr.st", "-task", "expr", "-hidden", "4", "-batch", "8", "-chunk", "8", "-replay", "2", "-updates", "1")
	f, err := checkpoint.ReadFile(ck)
	require.NoError(t, err)
	cfg, err := trainer.ReadCheckpointConfig(f)
	require.NoError(t, err)
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	it := tk.(task.Itemized)
	program, in := tasktest.VerifiedProgram(it, 0, 0, 4)
	require.NotNil(t, program)
	reward := task.Score(it, &in, program).Reward
	padded := func(p ...int32) []int32 {
		out := slices.Clone(p)
		for len(out) < cfg.Steps {
			out = append(out, it.Answer())
		}
		return out
	}
	// crafted writes ck with its replay buffer replaced by one entry, and
	// its item state edited by edit (when not nil).
	crafted := func(name string, program []int32, reward float64, length int, edit func(g *checkpoint.File)) string {
		g := withReplayEntry(t, f, 0, 0, program, reward, length)
		if edit != nil {
			edit(g)
		}
		p := filepath.Join(dir, name)
		require.NoError(t, checkpoint.WriteFile(p, g))
		return p
	}
	resume := []string{"-updates", "2", "-eval-every", "0", "-final-episodes", "0", "-explain", "0"}

	good := crafted("good.st", padded(program...), reward, len(program), nil)
	code, _, stderr := runCLI(append([]string{"-resume", good}, resume...)...)
	require.Equal(t, 0, code, "a verified entry resumes: %s", stderr)
	code, _, stderr = runCLI("-load", good, "-eval-only", "-final-episodes", "0", "-explain", "0")
	require.Equal(t, 0, code, "a verified entry loads: %s", stderr)

	notAction := it.NotActions()[0]
	failOf := func(x float64) func(g *checkpoint.File) {
		return func(g *checkpoint.File) {
			for i, tn := range g.Tensors {
				if tn.Name == "items.item_fail" {
					tn.F64 = slices.Clone(tn.F64)
					tn.F64[1] = x
					g.Tensors[i] = tn
				}
			}
		}
	}
	for _, c := range []struct {
		file string
		path string
		want string
	}{
		{"unsolved.st", crafted("unsolved.st", padded(it.Answer()), 1, 1, nil),
			"checkpoint item state: replay_buffer[0]: the program does not solve level 0 item 0"},
		{"not-action.st", crafted("not-action.st", padded(append([]int32{notAction}, program...)...), reward, len(program)+1, nil),
			fmt.Sprintf("checkpoint item state: replay_buffer[0]: token %d (%s) at 0 is not an action the policy may write", notAction, it.TokenName(notAction))},
		{"reward.st", crafted("reward.st", padded(program...), 1e308, len(program), nil),
			"checkpoint item state: replay_buffer[0]: reward 1e+308 is out of range 1..1.3"},
		{"reward-2.st", crafted("reward-2.st", padded(program...), 2, len(program), nil),
			"checkpoint item state: replay_buffer[0]: reward 2 is out of range 1..1.3"},
		{"reward-nan.st", crafted("reward-nan.st", padded(program...), math.NaN(), len(program), nil),
			"checkpoint item state: replay_buffer[0]: reward NaN is not a finite number"},
		{"fail.st", crafted("fail.st", padded(program...), reward, len(program), failOf(2)),
			"checkpoint item state: item_fail[0][1] 2 is out of range 0..1"},
	} {
		for _, mode := range [][]string{append([]string{"-resume", c.path}, resume...), {"-load", c.path, "-eval-only", "-final-episodes", "0", "-explain", "0"}} {
			code, stdout, stderr := runGuarded(t, mode...)
			require.Equalf(t, 2, code, "%s %s: %s", mode[0], c.file, stderr)
			require.Equalf(t, 1, strings.Count(stderr, "\n"), "%s %s: want one line, got %q", mode[0], c.file, stderr)
			require.Containsf(t, stderr, "simdrl: "+mode[0]+" "+c.path+": "+c.want, "%s %s", mode[0], c.file)
			require.NotContains(t, stdout, "Training", c.file)
			require.NotContains(t, stdout, "Final greedy", c.file)
		}
	}

	// Without an item state at all, the file is weights to -load and short
	// of its state to -resume.
	g := *f
	g.Tensors = slices.DeleteFunc(slices.Clone(f.Tensors), func(tn checkpoint.Tensor) bool { return strings.HasPrefix(tn.Name, "items.") })
	bare := filepath.Join(dir, "no-items.st")
	require.NoError(t, checkpoint.WriteFile(bare, &g))
	code, _, stderr = runCLI("-load", bare, "-eval-only", "-final-episodes", "0", "-explain", "0")
	require.Equal(t, 0, code, "-load takes the weights of a file without an item state: %s", stderr)
	code, _, stderr = runGuarded(t, append([]string{"-resume", bare}, resume...)...)
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "checkpoint has no item state")
}

// withReplayEntry is f with its replay buffer (the tensors
// items.replay_buffer.*) replaced by one entry.
func withReplayEntry(t *testing.T, f *checkpoint.File, level, item int, program []int32, reward float64, length int) *checkpoint.File {
	g := *f
	g.Tensors = nil
	replaced := 0
	for _, tn := range f.Tensors {
		switch tn.Name {
		case "items.replay_buffer.item":
			tn.Shape, tn.I64 = []int{1, 2}, []int64{int64(level), int64(item)}
		case "items.replay_buffer.program":
			tn.Shape, tn.I32 = []int{1, len(program)}, program
		case "items.replay_buffer.reward":
			tn.Shape, tn.F64 = []int{1}, []float64{reward}
		case "items.replay_buffer.length":
			tn.Shape, tn.I64 = []int{1}, []int64{int64(length)}
		default:
			g.Tensors = append(g.Tensors, tn)
			continue
		}
		replaced++
		g.Tensors = append(g.Tensors, tn)
	}
	require.Equal(t, 4, replaced, "the checkpoint has a replay buffer")
	return &g
}
