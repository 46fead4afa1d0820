package checkpoint

// Tensor is one named tensor, row-major: its values are in the slice of its
// DType (Data for F32, the zero DType).
type Tensor struct {
	Name  string
	Shape []int
	DType DType
	Data  []float32
	F64   []float64
	I32   []int32
	I64   []int64
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

	// MaxHeader is the largest header Decode accepts (the safetensors
	// library's own limit is 100 MB).
	MaxHeader = 100 << 20
)

// maxHeader is MaxHeader, the one limit Encode and Decode both apply (a
// test lowers it to check that they agree at its edge).
var maxHeader = MaxHeader

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
