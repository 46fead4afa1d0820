package gpu

import "fmt"

// Error is a failed CUDA driver call, reported by the error's name.
type Error struct {
	Call string // the driver function, e.g. "cuMemAlloc"
	Code int    // CUresult
	Name string // e.g. "CUDA_ERROR_OUT_OF_MEMORY"
	Text string // the driver's description, when it gave one
}

func (e *Error) Error() string {
	if e.Text != "" {
		return fmt.Sprintf("gpu: %s: %s (%s)", e.Call, e.Name, e.Text)
	}
	return fmt.Sprintf("gpu: %s: %s", e.Call, e.Name)
}

// CUresult codes the package names itself (cuda.h).
const (
	cudaSuccess               = 0
	cudaErrorNoDevice         = 100
	cudaErrorUnsupportedPTX   = 222
	cudaErrorInvalidPTX       = 218
	cudaErrorNotInitialized   = 3
	cudaErrorInsufficientDrv  = 35
	cudaErrorCompatNotSupport = 804
)

// errorNames is the fallback table for when cuGetErrorName is unavailable
// (or does not know the code): the common codes of cuda.h.
var errorNames = map[int]string{
	0:   "CUDA_SUCCESS",
	1:   "CUDA_ERROR_INVALID_VALUE",
	2:   "CUDA_ERROR_OUT_OF_MEMORY",
	3:   "CUDA_ERROR_NOT_INITIALIZED",
	4:   "CUDA_ERROR_DEINITIALIZED",
	34:  "CUDA_ERROR_STUB_LIBRARY",
	35:  "CUDA_ERROR_INSUFFICIENT_DRIVER",
	46:  "CUDA_ERROR_DEVICE_UNAVAILABLE",
	100: "CUDA_ERROR_NO_DEVICE",
	101: "CUDA_ERROR_INVALID_DEVICE",
	200: "CUDA_ERROR_INVALID_IMAGE",
	201: "CUDA_ERROR_INVALID_CONTEXT",
	209: "CUDA_ERROR_NO_BINARY_FOR_GPU",
	218: "CUDA_ERROR_INVALID_PTX",
	221: "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
	222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	300: "CUDA_ERROR_INVALID_SOURCE",
	400: "CUDA_ERROR_INVALID_HANDLE",
	500: "CUDA_ERROR_NOT_FOUND",
	700: "CUDA_ERROR_ILLEGAL_ADDRESS",
	701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
	702: "CUDA_ERROR_LAUNCH_TIMEOUT",
	719: "CUDA_ERROR_LAUNCH_FAILED",
	801: "CUDA_ERROR_NOT_SUPPORTED",
	803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
	804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
	999: "CUDA_ERROR_UNKNOWN",
}

// fallbackErrorName names a CUresult from the table.
func fallbackErrorName(code int) string {
	if n, ok := errorNames[code]; ok {
		return n
	}
	return fmt.Sprintf("CUDA error %d", code)
}
