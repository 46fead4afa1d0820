package abi

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHeaderIsGenerated: kernels/args.cuh is what the table writes (go
// generate ./gpu/ after an edit of the table).
func TestHeaderIsGenerated(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("../..", HeaderPath))
	require.NoError(t, err)
	got, want := strings.Split(string(b), "\n"), strings.Split(Header(), "\n")
	for i := range max(len(got), len(want)) {
		g, w := "(end of file)", "(end of file)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Fatalf("gpu/kernels/args.cuh is not what gpu/internal/abi's table writes (go generate ./gpu/): line %d is\n\t%s\nthe table writes\n\t%s", i+1, g, w)
		}
	}
}

var reKernel = regexp.MustCompile(`extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*\(([^)]*)\)`)

// TestKernelsDeclareTheTable: every kernel of kernels/*.cu is in the table,
// in its module, and declares its parameters as args.cuh's macro, not by
// hand; every kernel of the table exists; a family with a carving carves
// shared memory with its macro only.
func TestKernelsDeclareTheTable(t *testing.T) {
	files, err := filepath.Glob("../../kernels/*.cu")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		src, module := string(b), strings.TrimSuffix(filepath.Base(f), ".cu")
		require.Contains(t, src, `#include "args.cuh"`, f)
		for _, m := range reKernel.FindAllStringSubmatch(src, -1) {
			name, params := m[1], strings.TrimSpace(m[2])
			k := Of(name)
			require.NotNilf(t, k, "%s declares kernel %s, which gpu/internal/abi's table does not list", f, name)
			require.Equalf(t, k.Module, module, "kernel %s is in %s.cu, the table says %s.cu", name, module, k.Module)
			require.Equalf(t, "SIMDRL_"+k.Macro+"_PARAMS", params, "kernel %s must declare its parameters as args.cuh's macro (the table's), not %q", name, params)
			require.Falsef(t, seen[name], "kernel %s declared twice", name)
			seen[name] = true
		}
		for _, k := range Kernels {
			if k.Module == module && len(k.Smem) > 0 {
				require.Equalf(t, 1, strings.Count(src, "SIMDRL_"+k.Macro+"_SMEM(cv)"), "%s: SIMDRL_%s_SMEM(cv) carves %s's shared memory", f, k.Macro, k.Entries[0])
			}
		}
		require.NotContainsf(t, src, "simdrl_carve(", "%s carves shared memory by hand: add the regions to gpu/internal/abi's table", f)
	}
	for _, k := range Kernels {
		for _, e := range k.Entries {
			require.Truef(t, seen[e], "the table lists %s, which no kernels/*.cu declares", e)
		}
	}
}

// TestTable: names are unique, every C type packs as a kind, a region's
// condition is an int parameter, an entry point belongs to one family.
func TestTable(t *testing.T) {
	entries := map[string]bool{}
	macros := map[string]bool{}
	for _, k := range Kernels {
		require.Falsef(t, macros[k.Macro], "macro %s twice", k.Macro)
		macros[k.Macro] = true
		names := map[string]string{}
		for _, p := range k.Params {
			_, dup := names[p.Name]
			require.Falsef(t, dup, "%s: parameter %s twice", k.Macro, p.Name)
			names[p.Name] = p.C
			_, err := Kind(p.C)
			require.NoError(t, err, k.Macro)
		}
		for _, r := range k.Smem {
			require.NotEmpty(t, r.Factors, r.Name)
			if r.Cond != "" {
				require.Equalf(t, "int", names[r.Cond], "%s: region %s's condition %s is not an int parameter", k.Macro, r.Name, r.Cond)
			}
		}
		for _, e := range k.Entries {
			require.Falsef(t, entries[e], "entry %s twice", e)
			entries[e] = true
			require.Same(t, Of(e), Of(k.Entries[0]))
		}
	}
	_, err := Kind("struct foo")
	require.Error(t, err)
	require.Equal(t, []byte{'p', 'p', 'i', 'u', 'f', 'd'}, func() (ks []byte) {
		for _, c := range []string{"float *", "const int32_t *__restrict__", "int", "uint32_t", "float", "double"} {
			k, err := Kind(c)
			require.NoError(t, err)
			ks = append(ks, k)
		}
		return ks
	}())
}

// TestSmemBytes: regions are rounded up to 16 bytes, in order, and a region
// whose condition is off takes nothing.
func TestSmemBytes(t *testing.T) {
	k := Kernel{Params: []Param{{"w", "int"}}, Smem: []Region{
		region("a", "double", "", "n"),
		{Name: "b", C: "float", Factors: []string{"n", "n"}, Cond: "w"},
		region("c", "int32_t", "", "n"),
	}}
	dim := func(string) int { return 3 }
	require.Equal(t, 32+48+16, k.SmemBytes(dim, func(string) bool { return true }))
	require.Equal(t, 32+16, k.SmemBytes(dim, func(string) bool { return false }))
}
