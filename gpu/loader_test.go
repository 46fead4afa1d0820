//go:build cgo

package gpu

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLoaderMissingLibrary: without the driver library, Open says which
// library it could not load and why.
func TestLoaderMissingLibrary(t *testing.T) {
	saved := libName
	defer func() {
		libName = saved
		loadOnce.Lock()
		loadOnce.done = false
		loadOnce.Unlock()
	}()
	libName = "libcuda-simdrl-test-missing.so.1"
	_, err := Open()
	require.Error(t, err)
	require.Contains(t, err.Error(), "gpu: cannot load the CUDA driver library libcuda-simdrl-test-missing.so.1")
	require.Contains(t, err.Error(), "is the NVIDIA driver installed?")
	require.Error(t, Available())
}

// TestErrorNameFromDriver: with the driver library loadable, its own names
// agree with the fallback table.
func TestErrorNameFromDriver(t *testing.T) {
	if err := loadDriver(); err != nil {
		t.Skipf("no driver library here: %v", err)
	}
	for _, code := range []int{1, 2, 100, 222, 700} {
		require.Equal(t, fallbackErrorName(code), errorName(code))
	}
}

// TestOpenSaysWhatIsMissing: on this machine Open either works or says
// plainly what is missing.
func TestOpenSaysWhatIsMissing(t *testing.T) {
	d, err := Open()
	if err == nil {
		t.Log(d.Describe())
		d.Close()
		return
	}
	t.Log(err)
	msg := err.Error()
	require.True(t, strings.Contains(msg, "cannot load the CUDA driver library") || strings.Contains(msg, "found no GPU") ||
		strings.Contains(msg, "did not initialise") || strings.Contains(msg, "compute capability") || strings.Contains(msg, "PTX ISA"), msg)
	_ = os.Getenv
}
