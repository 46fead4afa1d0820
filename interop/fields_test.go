package interop_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/gru"
	"github.com/stretchr/testify/require"
)

// TestTorchInteropRefusesEpisodes: episodes that do not fit a model with
// fields (no vector, a field value outside its field, a step's legal
// tokens outside the vocabulary) are refused by the script in one line
// naming what is wrong, exit 1, rather than played.
func TestTorchInteropRefusesEpisodes(t *testing.T) {
	py := needTorch(t)
	dir := t.TempDir()
	l, err := gru.NewLayout(gru.Config{Vocab: seed.Vocab, Hidden: 96, Levels: seed.NumLevels, Fields: []int{3, 4}, Vector: 2})
	require.NoError(t, err)
	params := make([]float32, l.Size)
	l.Init(params, modelSeed)
	ckpt := filepath.Join(dir, "model.safetensors")
	writeCheckpoint(t, ckpt, l, params)
	for _, c := range []struct{ episode, want string }{
		{`"fields": [[0, 1], [2, 3]]`,
			"episode 0: give fields, vector for each step it plays, as many of each, 1 to 6 (the model takes fields, vector)"},
		{`"fields": [[0, 1], [2, 4]], "vector": [[0, 1], [1, 0]]`, "episode 0: a field 1 value outside 0..3"},
		{`"fields": [[0, 1]], "vector": [[0, 1]], "legal": [[3, 18]]`,
			"episode 0, step 0: the legal tokens [3, 18] are not a non-empty list of 0..17"},
	} {
		ctxPath := filepath.Join(dir, "contexts.json")
		episodes := `{"steps": 6, "end": 10, "episodes": [{"stage": 0, "context": [1, 2], ` + c.episode + `}]}`
		require.NoError(t, os.WriteFile(ctxPath, []byte(episodes), 0o644))
		cmd := exec.Command(py, script, ckpt, ctxPath)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err = cmd.Run()
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, c.episode)
		require.Equal(t, 1, ee.ExitCode())
		require.Equal(t, c.want, strings.TrimSpace(stderr.String()), c.episode)
	}
}
