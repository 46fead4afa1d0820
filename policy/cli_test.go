package policy_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/simdrl/simdrl/cli"
	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestEqualsTheCommandsEvalOnly: the command itself, `simdrl -load FILE
// -eval-only`, reports the final solve rates and mean rewards the policy's
// Evaluate gives, level by level, for a reading and an observing model.
func TestEqualsTheCommandsEvalOnly(t *testing.T) {
	for _, k := range []kind{kinds[1], kinds[2]} {
		t.Run(k.name, func(t *testing.T) {
			path, _, _ := trained(t, k)
			p, err := policy.Load(path)
			require.NoError(t, err)
			report := filepath.Join(t.TempDir(), "report.json")
			var stdout, stderr bytes.Buffer
			args := []string{"-load", path, "-eval-only", "-quiet", "-report", report}
			code := cli.Run(args, &stdout, &stderr)
			require.Equal(t, 0, code, "%s\n%s", stdout.String(), stderr.String())
			raw, err := os.ReadFile(report)
			require.NoError(t, err)
			var rep trainer.Report
			require.NoError(t, json.Unmarshal(raw, &rep))
			// The command evaluates with its own flags (here their defaults):
			// another chunk than the checkpoint's, which changes how rewards are summed.
			cmd := policy.Evaluation{Episodes: rep.Final.Episodes, Split: task.HeldOut, Seed: rep.Config.Seed, Chunk: min(rep.Config.Chunk, rep.Config.Batch)}
			require.NotEqual(t, p.FinalEvaluation().Chunk, cmd.Chunk, "a test of the chunk's part in the mean")
			for level := range p.Task().Levels() {
				got, err := p.Evaluate(level, cmd)
				require.NoError(t, err)
				require.Equal(t, rep.FinalByLevel[level], got, "level %d", level)
			}
		})
	}
}
