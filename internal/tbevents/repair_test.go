package tbevents_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/simdrl/simdrl/internal/tbdecode"
	"github.com/simdrl/simdrl/internal/tbevents"
	"github.com/stretchr/testify/require"
)

// TestRepairDirCutsOffTornRecords: an events file that ends in part of a
// record (its header cut, or its data) is truncated to its last whole
// record and decodes; a whole file is left as it is, and so is one damaged
// otherwise (a length whose checksum does not match): that is no cut, and
// not ours to change.
func TestRepairDirCutsOffTornRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run[1]") // no glob
	w, err := tbevents.Create(dir)
	require.NoError(t, err)
	require.NoError(t, w.Write(2, []tbevents.Scalar{{Tag: "a", Value: 1}}))
	require.NoError(t, w.Close())
	whole, err := os.ReadFile(w.Name())
	require.NoError(t, err)
	recs, err := tbdecode.Records(whole)
	require.NoError(t, err)
	last := whole[len(whole)-16-len(recs[1]):]
	damaged := append([]byte{}, last...)
	damaged[8] ^= 1 // the length's checksum
	for _, c := range []struct {
		name string
		tail []byte
		cut  int64
	}{
		{"header cut", last[:7], 7},
		{"data cut", last[:len(last)-1], int64(len(last) - 1)},
		{"whole", last, 0},
		{"damaged", damaged, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(w.Name(), append(append([]byte{}, whole...), c.tail...), 0o644))
			torn, err := tbevents.RepairDir(dir)
			require.NoError(t, err)
			got, err := os.ReadFile(w.Name())
			require.NoError(t, err)
			if c.cut == 0 {
				require.Empty(t, torn)
				require.Len(t, got, len(whole)+len(c.tail))
				return
			}
			require.Equal(t, []tbevents.Torn{{File: w.Name(), Bytes: c.cut}}, torn)
			require.Equal(t, whole, got)
			_, err = tbdecode.ReadFile(w.Name())
			require.NoError(t, err)
		})
	}
	torn, err := tbevents.RepairDir(dir + "/missing")
	require.NoError(t, err)
	require.Empty(t, torn)
}
