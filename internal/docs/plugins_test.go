package docs

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// concreteTask reports whether the project package rel is a concrete task: a
// plug-in (tasks/…, tasks/builtin included) or a task's world (env/seed,
// env/calc, env/expr, env/tape and what lies under them). env/interp, the
// interpreted machine's op table type, is the GPU's contract, not a task.
func concreteTask(rel string) bool {
	if rel == "tasks" || strings.HasPrefix(rel, "tasks/") {
		return true
	}
	for _, world := range []string{"env/seed", "env/calc", "env/expr", "env/tape"} {
		if rel == world || strings.HasPrefix(rel, world+"/") {
			return true
		}
	}
	return false
}

// TestDocConcreteTasksOnlyThroughRegistration: the contract (task), the command
// as a library (cli) and the GPU engine depend on no concrete task, not even
// indirectly (go list -deps): they reach the built-in tasks only through
// task.Register and task.RegisterSpecEditor, as they reach a user's task.
// cmd/simdrl gets them by importing tasks/builtin.
func TestDocConcreteTasksOnlyThroughRegistration(t *testing.T) {
	for _, root := range []string{"task", "cli", "gpu", "cpu", "trainer"} {
		cmd := exec.Command("go", "list", "-deps", "./"+root)
		cmd.Dir = "../.."
		out, err := cmd.Output()
		require.NoError(t, err, root)
		var deps, concrete []string
		for _, p := range strings.Fields(string(out)) {
			if rel, ok := strings.CutPrefix(p, module); ok {
				deps = append(deps, rel)
				if concreteTask(rel) {
					concrete = append(concrete, rel)
				}
			}
		}
		require.Contains(t, deps, root, "go list -deps ./%s lists the package itself", root)
		require.Emptyf(t, concrete, "%s depends on concrete tasks", root)
	}
	cmd := exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", "./cmd/simdrl")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	require.NoError(t, err)
	require.Contains(t, strings.Fields(string(out)), module+"tasks/builtin", "cmd/simdrl registers the built-in tasks")
}
