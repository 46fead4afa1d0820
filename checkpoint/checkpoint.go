// Package checkpoint reads and writes simdrl's checkpoint files: safetensors
// files of float32 tensors under PyTorch's state_dict names, with string
// metadata, so that PyTorch's own tools (and a reader written with the Python
// standard library) load them.
//
// The format (https://github.com/huggingface/safetensors): an 8-byte
// little-endian uint64 N, then N bytes of JSON header
//
//	{"__metadata__": {"key": "value", ...},
//	 "<name>": {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, ...}
//
// then the data buffer, the tensors packed back to back in little-endian
// order, their offsets relative to the buffer's start.
//
// Encode writes the header keys in the order the tensors are given (metadata
// first, its keys sorted) and pads the header with spaces to a multiple of 8
// bytes, so the data starts aligned. Decode is strict (see Decode) and never
// panics; it returns the tensors in the order of their data, so a file that
// Encode wrote decodes to the tensors in the order they were given.
package checkpoint

// Tensor is one named float32 tensor, row-major.
type Tensor struct {
	Name  string
	Shape []int
	Data  []float32
}

// File is a checkpoint: string metadata and tensors in order.
type File struct {
	Metadata map[string]string
	Tensors  []Tensor
}

// Lookup returns the tensor named name.
func (f *File) Lookup(name string) (Tensor, bool) {
	for _, t := range f.Tensors {
		if t.Name == name {
			return t, true
		}
	}
	return Tensor{}, false
}

const (
	metadataKey = "__metadata__"
	dtypeF32    = "F32"

	// MaxHeader is the largest header Decode accepts (the safetensors
	// library's own limit is 100 MB).
	MaxHeader = 100 << 20
)

// elements is the product of shape's dimensions, or ok=false when a
// dimension is negative or the product exceeds limit (overflow-safe).
func elements(shape []int, limit int) (n int, ok bool) {
	n = 1
	for _, s := range shape {
		if s < 0 {
			return 0, false
		}
		if s == 0 {
			n = 0
		}
	}
	if n == 0 {
		return 0, true
	}
	for _, s := range shape {
		if n > limit/s {
			return 0, false
		}
		n *= s
	}
	return n, true
}
