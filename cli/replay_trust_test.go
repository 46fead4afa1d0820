package cli

import (
	"encoding/json"
	"fmt"
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
// naming the entry and what is wrong with it; a verified entry resumes.
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
	// crafted writes ck with its replay buffer replaced by one entry.
	crafted := func(name string, program []int32, reward float64, length int) string {
		var items map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(f.Metadata["items"]), &items))
		entry, err := json.Marshal([]map[string]any{{"level": 0, "item": 0, "program": program, "reward": reward, "length": length}})
		require.NoError(t, err)
		items["replay_buffer"] = entry
		raw, err := json.Marshal(items)
		require.NoError(t, err)
		g := *f
		g.Metadata = map[string]string{}
		for k, v := range f.Metadata {
			g.Metadata[k] = v
		}
		g.Metadata["items"] = string(raw)
		p := filepath.Join(dir, name)
		require.NoError(t, checkpoint.WriteFile(p, &g))
		return p
	}
	resume := []string{"-updates", "2", "-eval-every", "0", "-final-episodes", "0", "-explain", "0"}

	good := crafted("good.st", padded(program...), reward, len(program))
	code, _, stderr := runCLI(append([]string{"-resume", good}, resume...)...)
	require.Equal(t, 0, code, "a verified entry resumes: %s", stderr)

	notAction := it.NotActions()[0]
	for _, c := range []struct {
		file string
		path string
		want string
	}{
		{"unsolved.st", crafted("unsolved.st", padded(it.Answer()), 1, 1),
			"checkpoint item state: replay_buffer[0]: the program does not solve level 0 item 0"},
		{"not-action.st", crafted("not-action.st", padded(append([]int32{notAction}, program...)...), reward, len(program)+1),
			fmt.Sprintf("checkpoint item state: replay_buffer[0]: token %d (%s) at 0 is not an action the policy may write", notAction, it.TokenName(notAction))},
		{"reward.st", crafted("reward.st", padded(program...), 1e308, len(program)),
			"checkpoint item state: replay_buffer[0]: reward 1e+308 is out of range 1..1.3"},
	} {
		code, stdout, stderr := runGuarded(t, append([]string{"-resume", c.path}, resume...)...)
		require.Equalf(t, 2, code, "%s: %s", c.file, stderr)
		require.Equalf(t, 1, strings.Count(stderr, "\n"), "%s: want one line, got %q", c.file, stderr)
		require.Containsf(t, stderr, "simdrl: -resume "+c.path+": "+c.want, c.file)
		require.NotContains(t, stdout, "Training", c.file)
	}
}
