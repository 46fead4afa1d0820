package interop_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/stretchr/testify/require"
)

// wrongPort is a mistake a port of the model could make: the checkpoint or
// the episodes it is given are changed so that PyTorch computes what such a
// port would. TestTorchInteropKinds requires that agree refuses its
// programs, so the comparison can fail where the port is wrong.
type wrongPort struct {
	name     string
	tensors  func(f *checkpoint.File)                // nil: the checkpoint as saved
	episodes func(eps []torchEpisode) []torchEpisode // nil: the episodes as played
}

// fieldsWrong: the vector's layer negated; the first field shifted by one.
var fieldsWrong = []wrongPort{
	{name: "vec.weight negated", tensors: func(f *checkpoint.File) {
		for i := range f.Tensors {
			if f.Tensors[i].Name == "vec.weight" {
				for j := range f.Tensors[i].Data {
					f.Tensors[i].Data[j] = -f.Tensors[i].Data[j]
				}
			}
		}
	}},
	{name: "field 0 shifted", episodes: func(eps []torchEpisode) []torchEpisode {
		out := slices.Clone(eps)
		for b := range out {
			out[b].Fields = nil
			for _, fs := range eps[b].Fields {
				fs = slices.Clone(fs)
				fs[0] = (fs[0] + 1) % int32(dialSpec.Sizes[0])
				out[b].Fields = append(out[b].Fields, fs)
			}
		}
		return out
	}},
}

// maskWrong: the legal-action mask left out (every token legal).
var maskWrong = []wrongPort{
	{name: "no legal-action mask", episodes: func(eps []torchEpisode) []torchEpisode {
		out := slices.Clone(eps)
		for b := range out {
			out[b].Legal = nil
		}
		return out
	}},
}

// checkWrong runs PyTorch as each wrong port of k would and requires agree
// to refuse its programs.
func checkWrong(t *testing.T, py, path string, spec map[string]any, eps []played, wrong []wrongPort) {
	for _, w := range wrong {
		dir := t.TempDir()
		ckpt := path
		if w.tensors != nil {
			f, err := checkpoint.ReadFile(path)
			require.NoError(t, err)
			w.tensors(f)
			ckpt = filepath.Join(dir, "wrong.safetensors")
			require.NoError(t, checkpoint.WriteFile(ckpt, f))
		}
		ws := map[string]any{}
		for k, v := range spec {
			ws[k] = v
		}
		if w.episodes != nil {
			ws["episodes"] = w.episodes(spec["episodes"].([]torchEpisode))
		}
		_, err := agree(eps, runTorch(t, py, ckpt, ws, dir))
		require.Error(t, err, "PyTorch with %s plays simdrl's programs: the comparison cannot tell", w.name)
		t.Logf("with %s: %v", w.name, err)
	}
}
