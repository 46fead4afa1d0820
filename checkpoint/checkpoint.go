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
