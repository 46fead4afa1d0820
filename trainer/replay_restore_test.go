package trainer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/task"
)

// exprReplayRun is a Trainer of the expr task with replay on a fakeEngine,
// and its task.
func exprReplayRun(t *testing.T) (*Trainer, task.Itemized) {
	cfg := DefaultRecipe()
	cfg.Task = "expr"
	cfg, err := WithTask(cfg)
	require.NoError(t, err)
	cfg.Hidden, cfg.Replay = 4, 4
	tr, _ := newFakeRun(cfg, func(call, int) float64 { return 0 })
	it, ok := tr.task.(task.Itemized)
	require.True(t, ok)
	return tr, it
}

// solvingProgram is a shortest program that solves level 0's training
// item 0, and an instance of that item.
func solvingProgram(t *testing.T, it task.Itemized) ([]int32, task.Instance) {
	p, in := tasktest.VerifiedProgram(it, 0, 0, 4)
	require.NotNil(t, p, "no program of up to 4 tokens solves level 0's item 0")
	return p, in
}

// withReplay is f with its replay buffer set to entries (as tensors), the
// entries' programs steps tokens long.
func withReplay(t *testing.T, f *checkpoint.File, steps int, entries ...*replayEntry) *checkpoint.File {
	g := *f
	g.Tensors = nil
	replaced := 0
	for _, tn := range f.Tensors {
		if strings.HasPrefix(tn.Name, "items.replay_buffer.") {
			replaced++
			continue
		}
		g.Tensors = append(g.Tensors, tn)
	}
	require.Equal(t, 4, replaced, "f has a replay buffer")
	g.Tensors = append(g.Tensors, replayTensors(entries, steps)...)
	return &g
}

// TestRestoreVerifiesReplayEntries: a checkpoint's replay buffer is trusted
// no more than an episode is: an entry is restored only if its program is
// made of actions, solves its item (Itemized.Verify, as the buffer's own
// insertions are checked) and has a reward the task can give a program
// that solves it. A crafted one was trained on (a token the policy may never
// write made the replay loss 3285.9) and saved again.
func TestRestoreVerifiesReplayEntries(t *testing.T) {
	src, it := exprReplayRun(t)
	f, err := src.Checkpoint()
	require.NoError(t, err)
	steps := src.cfg.Steps
	program, in := solvingProgram(t, it)
	padded := func(p ...int32) []int32 {
		out := slices.Clone(p)
		for len(out) < steps {
			out = append(out, it.Answer())
		}
		return out
	}
	reward := task.Score(it, &in, program).Reward
	good := &replayEntry{Level: 0, Item: 0, Program: padded(program...), Reward: reward, Length: len(program)}

	dst, _ := exprReplayRun(t)
	require.NoError(t, dst.Restore(withReplay(t, f, steps, good)), "a verified entry is restored")
	require.Len(t, dst.replay.order, 1)

	notAction := it.NotActions()[0]
	credit := it.(task.Interpreted).PartialCredit()
	for _, c := range []struct {
		entry *replayEntry
		want  string
	}{
		{&replayEntry{Level: 0, Item: 0, Program: padded(it.Answer()), Reward: 1, Length: 1},
			"replay_buffer[0]: the program does not solve level 0 item 0"},
		{&replayEntry{Level: 0, Item: 0, Program: padded(append([]int32{notAction}, program...)...), Reward: reward, Length: len(program) + 1},
			fmt.Sprintf("replay_buffer[0]: token %d (%s) at 0 is not an action", notAction, it.TokenName(notAction))},
		{&replayEntry{Level: 0, Item: 0, Program: good.Program, Reward: 1e308, Length: good.Length},
			fmt.Sprintf("replay_buffer[0]: reward 1e+308 is out of range %v..%v", 1.0, 1+credit)},
		{&replayEntry{Level: 0, Item: 0, Program: good.Program, Reward: 0.5, Length: good.Length},
			fmt.Sprintf("replay_buffer[0]: reward 0.5 is out of range %v..%v", 1.0, 1+credit)},
	} {
		fresh, _ := exprReplayRun(t)
		before, err := fresh.Checkpoint()
		require.NoError(t, err)
		var restoreErr error
		require.NotPanics(t, func() { restoreErr = fresh.Restore(withReplay(t, f, steps, c.entry)) })
		require.ErrorContains(t, restoreErr, c.want)
		require.Empty(t, fresh.replay.order, "a refused file changes nothing")
		after, err := fresh.Checkpoint()
		require.NoError(t, err)
		require.Equal(t, before.Metadata, after.Metadata)
		require.Equal(t, before.Tensors, after.Tensors)
	}
}
