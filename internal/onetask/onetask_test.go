package onetask

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/cli"
	"github.com/simdrl/simdrl/task"
	_ "github.com/simdrl/simdrl/tasks/calctask" // the program's one task
)

// TestOnlyTaskIsTheDefault: a program whose registry holds one task
// refused to start without -task ("-task must be calc, got \"seed\"") while
// its -h said (default "seed"), a task it does not have.
func TestOnlyTaskIsTheDefault(t *testing.T) {
	require.Equal(t, []string{"calc"}, task.Names(), "this test binary's registry holds one task")

	var out, errs bytes.Buffer
	require.Equal(t, 0, cli.Run([]string{"-h"}, &out, &errs), errs.String())
	line := regexp.MustCompile(`(?m)^.*--task string.*$`).FindString(out.String())
	require.Contains(t, line, `(default "calc")`, "-h's default is the task the program has")

	rep := filepath.Join(t.TempDir(), "run.json")
	out.Reset()
	errs.Reset()
	code := cli.Run([]string{"-updates", "1", "-batch", "8", "-eval-every", "1", "-eval-batch", "4", "-final-episodes", "4", "-explain", "0", "-threads", "1", "-report", rep}, &out, &errs)
	require.Equal(t, 0, code, errs.String())
	raw, err := os.ReadFile(rep)
	require.NoError(t, err)
	var r struct {
		Config struct {
			Task string `json:"task"`
		} `json:"config"`
	}
	require.NoError(t, json.Unmarshal(raw, &r))
	require.Equal(t, "calc", r.Config.Task, "no -task trains the program's one task")
}
