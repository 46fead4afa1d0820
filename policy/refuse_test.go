package policy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// TestLoadRefuses: a checkpoint of another task, a task not registered, a
// model of another shape and broken files are errors, never panics.
func TestLoadRefuses(t *testing.T) {
	path, _, _ := trained(t, kinds[0]) // calc
	f, err := checkpoint.ReadFile(path)
	require.NoError(t, err)
	tape, err := task.Open("tape", "")
	require.NoError(t, err)
	_, err = policy.NewWithTask(f, tape)
	require.ErrorContains(t, err, `task is "calc" but the task given is "tape"`)

	edited := func(from, to string) *checkpoint.File {
		g := *f
		g.Metadata = map[string]string{}
		for k, v := range f.Metadata {
			g.Metadata[k] = v
		}
		require.Contains(t, g.Metadata["config"], from)
		g.Metadata["config"] = strings.Replace(g.Metadata["config"], from, to, 1)
		return &g
	}
	_, err = policy.New(edited(`"task":"calc"`, `"task":"nosuch"`))
	require.ErrorContains(t, err, `task must be`)
	require.ErrorContains(t, err, `got "nosuch"`)
	_, err = policy.New(edited(`"hidden":24`, `"hidden":32`))
	require.ErrorContains(t, err, "this model needs [")
	_, err = policy.New(edited(`"steps":`, `"stepz":`))
	require.ErrorContains(t, err, "checkpoint config")

	_, err = policy.Load(filepath.Join(t.TempDir(), "missing.safetensors"))
	require.Error(t, err)
	garbage := filepath.Join(t.TempDir(), "garbage.safetensors")
	require.NoError(t, os.WriteFile(garbage, []byte("not a checkpoint at all"), 0o644))
	_, err = policy.Load(garbage)
	require.Error(t, err)
}

// TestLoadRefusesTheCorruptCorpus: of testdata/checkpoints, the valid file
// loads and the files whose weights, config, state or bytes are broken are
// refused, as -load refuses them (cli/corrupt_test.go); none panics.
func TestLoadRefusesTheCorruptCorpus(t *testing.T) {
	files, err := filepath.Glob("../testdata/checkpoints/*.safetensors")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	refused := 0
	for _, file := range files {
		_, err := policy.Load(file)
		switch name := filepath.Base(file); {
		case name == "valid.safetensors":
			require.NoError(t, err)
		case strings.HasPrefix(name, "nan-"), strings.HasPrefix(name, "inf-"), strings.HasPrefix(name, "truncated-"),
			strings.HasPrefix(name, "header-"), strings.HasPrefix(name, "shape-"), name == "empty.safetensors",
			name == "config-broken.safetensors", name == "state-broken.safetensors", name == "format-wrong.safetensors",
			name == "tensor-missing.safetensors", name == "state-solve-rate-out-of-range.safetensors":
			require.Error(t, err, name)
			require.NotContains(t, err.Error(), "\n", name)
			refused++
		}
	}
	require.GreaterOrEqual(t, refused, 15)
}
