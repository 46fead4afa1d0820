package checkpoint

import (
	"os"
	"testing"
)

// FuzzDecode: Decode never panics, and any file it accepts encodes and
// decodes again to the same content.
func FuzzDecode(f *testing.F) {
	valid := []*File{
		sample(),
		{},
		{Metadata: map[string]string{"k": "v"}},
		{Tensors: []Tensor{{Name: "a", Shape: []int{2, 2}, Data: []float32{1, 2, 3, 4}}, {Name: "b", Shape: []int{0}}}},
	}
	for _, v := range valid {
		b, err := Encode(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	if b, err := os.ReadFile("testdata/python_written.safetensors"); err == nil {
		f.Add(b)
	}
	for _, c := range brokenCases() {
		f.Add(c.file)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := Decode(b)
		if err != nil {
			if got != nil {
				t.Fatalf("Decode returned a file and an error: %v", err)
			}
			return
		}
		again, err := Encode(got)
		if err != nil {
			t.Fatalf("accepted file does not encode: %v", err)
		}
		back, err := Decode(again)
		if err != nil {
			t.Fatalf("re-encoded file does not decode: %v", err)
		}
		requireSameFile(t, got, back)
	})
}
