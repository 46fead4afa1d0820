package trainer

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMessagesInTheTasksOwnWords: a rollout below a level's budget is
// hinted in the words of the task at hand (calc's levels take :budget, the
// tape's and expr's do not), and -replay and -item-focus refused for a task
// without item sets do not call the expr task the only one with them.
func TestMessagesInTheTasksOwnWords(t *testing.T) {
	for name, calcWords := range map[string]bool{"calc": true, "tape": false, "expr": false} {
		cfg := DefaultRecipe()
		cfg.Task = name
		cfg, err := WithTask(cfg)
		require.NoError(t, err)
		longest := cfg.Steps
		cfg.Steps = longest - 1
		err = cfg.Validate()
		var fe *FieldError
		require.True(t, errors.As(err, &fe), "%s: %v", name, err)
		require.Equal(t, "steps", fe.Field, name)
		require.Contains(t, fe.Hint, "raise -steps", name)
		require.Contains(t, fe.Hint, itoa(longest), "%s: the longest budget", name)
		require.Equal(t, calcWords, contains(fe.Hint, ":budget"), "%s: %s", name, fe.Hint)
	}
	for _, field := range []string{"replay", "item_focus"} {
		cfg := DefaultRecipe()
		cfg.Task = "calc"
		cfg, err := WithTask(cfg)
		require.NoError(t, err)
		if field == "replay" {
			cfg.Replay = 4
		} else {
			cfg.ItemFocus = true
		}
		err = cfg.Validate()
		require.ErrorContains(t, err, "the calc task's are not", field)
		require.NotContains(t, err.Error(), "(the expr task)", field)
		require.Contains(t, err.Error(), "tape", field)
	}
}

func itoa(n int) string { return fmt.Sprint(n) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
