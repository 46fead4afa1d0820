package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/trainer"
)

// TestResumeOfAnotherTaskNamesTheTask: -resume tp.st -task calc, a tape
// checkpoint with item focus, was blamed on -item-focus (which nobody
// typed); -task expr on a shape. A -task that is not the checkpoint's is
// now named, with the checkpoint's task, in one line, whatever else then
// does not fit (the item focus, the model's vocabulary, the levels).
func TestResumeOfAnotherTaskNamesTheTask(t *testing.T) {
	dir := t.TempDir()
	tape := saveRun(t, dir, "tp.st", "-task", "tape", "-hidden", "4", "-batch", "8", "-chunk", "8", "-updates", "1")
	calc := saveRun(t, dir, "calc.st", "-task", "calc", "-hidden", "4", "-updates", "1")
	for _, c := range []struct {
		ck, task, was string
	}{
		{tape, "calc", "tape"}, // the calc task has no items: -item-focus was blamed
		{tape, "expr", "tape"}, // another vocabulary: a shape was blamed
		{calc, "tape", "calc"}, // another vocabulary and levels
		{calc, "seed", "calc"},
	} {
		code, stdout, stderr := runGuarded(t, "-resume", c.ck, "-task", c.task, "-updates", "3")
		require.Equal(t, 2, code, stderr)
		require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
		require.Contains(t, stderr, "simdrl: -resume "+c.ck+": -task "+c.task+": the checkpoint was trained on the "+c.was+" task", c.task)
		require.NotContains(t, stderr, "-item-focus", c.task)
		require.NotContains(t, stdout, "Training")
	}
}

// TestShapeHintNamesWhatTheTaskChanged: a user's task whose observation
// count changed under the same name and spec was told to "check -hidden".
// The hint now says what the tensor that does not fit counts: the task's
// observation tokens, tokens or levels, or the model's width.
func TestShapeHintNamesWhatTheTaskChanged(t *testing.T) {
	saved := trainer.Config{Task: "mytask", Hidden: 8}
	for _, c := range []struct {
		se   trainer.ShapeError
		want string
	}{
		{trainer.ShapeError{Tensor: "obs_emb.weight", Got: []int{5, 8}, Want: []int{7, 8}},
			"the mytask task has 7 observation tokens, the checkpoint's model 5: the task changed since it was saved"},
		{trainer.ShapeError{Tensor: "emb.weight", Got: []int{12, 8}, Want: []int{13, 8}},
			"the mytask task has 13 tokens, the checkpoint's model 12: the task changed since it was saved"},
		{trainer.ShapeError{Tensor: "stage_emb.weight", Got: []int{3, 8}, Want: []int{4, 8}},
			"the mytask task has 4 levels, the checkpoint's model 3: the task changed since it was saved"},
		{trainer.ShapeError{Tensor: "emb.weight", Got: []int{12, 4}, Want: []int{12, 8}},
			"the checkpoint's model is 4 wide, this run's 8: check -hidden"},
	} {
		hint := loadHint(&saved, saved, &c.se)
		require.Equal(t, c.want, hint)
		require.Equal(t, c.want, loadHint(nil, saved, &c.se), "a file without a config")
	}
}
