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

// TestTorchInteropRefusesFields: a checkpoint of a model with observation
// fields is refused by the script in one line naming them, exit 1, rather
// than loaded without them.
func TestTorchInteropRefusesFields(t *testing.T) {
	py := needTorch(t)
	dir := t.TempDir()
	l, err := gru.NewLayout(gru.Config{Vocab: seed.Vocab, Hidden: 96, Levels: seed.NumLevels, Fields: []int{3, 4}, Vector: 2})
	require.NoError(t, err)
	params := make([]float32, l.Size)
	l.Init(params, modelSeed)
	ckpt := filepath.Join(dir, "model.safetensors")
	writeCheckpoint(t, ckpt, l, params)
	ctxPath := filepath.Join(dir, "contexts.json")
	require.NoError(t, os.WriteFile(ctxPath, []byte(`{"contexts": [], "steps": 6}`), 0o644))
	cmd := exec.Command(py, script, ckpt, ctxPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 1, ee.ExitCode())
	msg := strings.TrimSpace(stderr.String())
	require.NotContains(t, msg, "\n")
	require.Contains(t, msg, "field_emb.0.weight, field_emb.1.weight, vec.weight, vec.bias")
}
