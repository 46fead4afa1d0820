package checkpoint

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// bits returns the float32 with bit pattern u.
func bits(u uint32) float32 { return math.Float32frombits(u) }

// sample is a file with every kind of float32 worth keeping bit for bit.
func sample() *File {
	return &File{
		Metadata: map[string]string{"format": "pt", "update": "42", "config": `{"lr": 0.001, "note": "<&>"}`, "unicode": "é→∑"},
		Tensors: []Tensor{
			{Name: "emb.weight", Shape: []int{2, 3}, Data: []float32{1, -2.5, 3e-38, 1e38, 0.1, -0.1}},
			{Name: "special", Shape: []int{8}, Data: []float32{
				bits(0x7FC00000), bits(0x7FC00001), bits(0xFFA5A5A5), bits(0x7F800001), // NaNs, quiet and signalling, with payloads
				float32(math.Inf(1)), float32(math.Inf(-1)), bits(0x80000000), bits(0x00000001), // ±Inf, −0, denormal
			}},
			{Name: "scalar", Shape: []int{}, Data: []float32{7}},
			{Name: "empty", Shape: []int{0, 5}, Data: []float32{}},
			{Name: "pi.bias", Shape: []int{3}, Data: []float32{0, 1, 2}},
		},
	}
}

// requireSameFile compares two files bit for bit (metadata, names, shapes,
// data, order); nil and empty metadata, data and shapes are the same.
func requireSameFile(t testing.TB, want, got *File) {
	t.Helper()
	require.Equal(t, len(want.Metadata), len(got.Metadata), "metadata size")
	for k, v := range want.Metadata {
		require.Equal(t, v, got.Metadata[k], "metadata %q", k)
	}
	require.Equal(t, len(want.Tensors), len(got.Tensors), "tensor count")
	for i, w := range want.Tensors {
		g := got.Tensors[i]
		require.Equal(t, w.Name, g.Name, "tensor %d", i)
		require.Equal(t, len(w.Shape), len(g.Shape), "tensor %s rank", w.Name)
		for j := range w.Shape {
			require.Equal(t, w.Shape[j], g.Shape[j], "tensor %s shape", w.Name)
		}
		require.Equal(t, len(w.Data), len(g.Data), "tensor %s size", w.Name)
		for j := range w.Data {
			if math.Float32bits(w.Data[j]) != math.Float32bits(g.Data[j]) {
				t.Fatalf("tensor %s[%d]: bits %#08x, want %#08x", w.Name, j, math.Float32bits(g.Data[j]), math.Float32bits(w.Data[j]))
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	f := sample()
	b, err := Encode(f)
	require.NoError(t, err)
	n := binary.LittleEndian.Uint64(b)
	require.Zero(t, n%8, "header padded to a multiple of 8")
	header := string(b[8 : 8+n])
	require.True(t, strings.HasPrefix(header, `{"__metadata__":{"config":`), header)
	require.Equal(t, header, strings.TrimRight(header, " ")+strings.Repeat(" ", len(header)-len(strings.TrimRight(header, " "))))
	// Tensors in the given order, not sorted.
	last := -1
	for _, tn := range f.Tensors {
		i := strings.Index(header, `"`+tn.Name+`"`)
		require.Greater(t, i, last, "tensor %s out of order in %s", tn.Name, header)
		last = i
	}
	require.Contains(t, header, `"<&>`, "no HTML escaping")
	require.Len(t, b, 8+int(n)+4*(6+8+1+0+3))

	g, err := Decode(b)
	require.NoError(t, err)
	requireSameFile(t, f, g)

	b2, err := Encode(g)
	require.NoError(t, err)
	require.Equal(t, b, b2, "re-encoding is byte-identical")
}

func TestMetadataRoundTrip(t *testing.T) {
	for _, md := range []map[string]string{nil, {}, {"": ""}, {"a": "1"}, {"step": "100", "rng": "round=7", "quote\"\\\n": "tab\t\u0000"}} {
		f := &File{Metadata: md, Tensors: []Tensor{{Name: "x", Shape: []int{1}, Data: []float32{1}}}}
		b, err := Encode(f)
		require.NoError(t, err)
		g, err := Decode(b)
		require.NoError(t, err)
		require.NotNil(t, g.Metadata)
		requireSameFile(t, f, g)
	}
	// No tensors at all is a valid file.
	b, err := Encode(&File{Metadata: map[string]string{"only": "metadata"}})
	require.NoError(t, err)
	g, err := Decode(b)
	require.NoError(t, err)
	require.Equal(t, "metadata", g.Metadata["only"])
	require.Empty(t, g.Tensors)
}

func TestLookup(t *testing.T) {
	f := sample()
	x, ok := f.Lookup("pi.bias")
	require.True(t, ok)
	require.Equal(t, []float32{0, 1, 2}, x.Data)
	_, ok = f.Lookup("pi.weight")
	require.False(t, ok)
}

func TestEncodeRejects(t *testing.T) {
	one := []float32{1}
	for _, c := range []struct {
		tensors []Tensor
		md      map[string]string
		want    string
	}{
		{[]Tensor{{Name: "", Shape: []int{1}, Data: one}}, nil, "empty name"},
		{[]Tensor{{Name: "__metadata__", Shape: []int{1}, Data: one}}, nil, "reserved"},
		{[]Tensor{{Name: "a", Shape: []int{1}, Data: one}, {Name: "a", Shape: []int{1}, Data: one}}, nil, "duplicate tensor a"},
		{[]Tensor{{Name: "a", Shape: []int{2}, Data: one}}, nil, "tensor a has shape [2] (2 elements) but 1 values"},
		{[]Tensor{{Name: "a", Shape: []int{-1}, Data: one}}, nil, "tensor a has invalid shape [-1]"},
		{[]Tensor{{Name: "bad\xff", Shape: []int{1}, Data: one}}, nil, "not valid UTF-8"},
		{nil, map[string]string{"k": "\xff"}, "not valid UTF-8"},
		{[]Tensor{{Name: "emb\nweight", Shape: []int{1}, Data: one}}, nil, `tensor name "emb\nweight" holds a non-printable character`},
	} {
		_, err := Encode(&File{Metadata: c.md, Tensors: c.tensors})
		require.ErrorContains(t, err, c.want)
	}
	_, err := Encode(nil)
	require.Error(t, err)
}

// file builds a safetensors file from a raw header and data buffer.
func file(header string, data []byte) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(b, header...), data...)
}

// withLength is a file whose header length field says n.
func withLength(n uint64, rest string) []byte {
	return append(binary.LittleEndian.AppendUint64(nil, n), rest...)
}

type brokenCase struct {
	name string
	file []byte
	want string // the error must contain this
}

// brokenCases are files Decode must reject, with the message it must give.
// The fuzz target uses them as seeds.
func brokenCases() []brokenCase {
	valid, _ := Encode(sample())
	zeros := func(n int) []byte { return make([]byte, n) }
	const w = `"dtype":"F32","shape":[2],"data_offsets":[0,8]`
	return []brokenCase{
		{"empty file", nil, "truncated file: 0 bytes"},
		{"short length", []byte{1, 2, 3}, "truncated file: 3 bytes"},
		{"truncated data", valid[:len(valid)-3], "tensor pi.bias has data_offsets [60, 72] out of range (data buffer of 69 bytes)"},
		{"truncated header", valid[:20], "truncated file: header length"},
		{"header longer than file", withLength(1000, `{}`), "header length 1000 larger than the 2 bytes"},
		{"absurd header", withLength(1<<40, `{}`), "header length 1099511627776 is absurd"},
		{"absurd header, huge", withLength(math.MaxUint64, `{}`), "is absurd"},
		{"not json", file(`{"a":`, nil), "not valid JSON"},
		{"json cut after a comma", file(`{"a":{},`, nil), "not valid JSON: unexpected EOF"},
		{"not json garbage", file(`{garbage}`, nil), "not valid JSON"},
		{"json array", file(`[]`, nil), "not a JSON object"},
		{"leading space", file(` {}`, nil), "must start with '{'"},
		{"empty header", file(``, nil), "must start with '{'"},
		{"two objects", file(`{}{}`, nil), "not valid JSON: data after the object"},
		{"junk after object", file(`{} x`, nil), "not valid JSON"},
		{"invalid utf8", file("{\"w\xff\":{}}", nil), "not valid UTF-8"},
		{"entry not object", file(`{"w":[1,2]}`, nil), "tensor w: header entry is an array"},
		{"missing dtype", file(`{"w":{"shape":[2],"data_offsets":[0,8]}}`, zeros(8)), "tensor w has no dtype"},
		{"missing shape", file(`{"w":{"dtype":"F32","data_offsets":[0,8]}}`, zeros(8)), "tensor w has no shape"},
		{"missing offsets", file(`{"w":{"dtype":"F32","shape":[2]}}`, zeros(8)), "tensor w has no data_offsets"},
		{"dtype F16", file(`{"pi.weight":{"dtype":"F16","shape":[4],"data_offsets":[0,8]}}`, zeros(8)),
			"tensor pi.weight has dtype F16; simdrl checkpoints hold F32"},
		{"dtype BF16", file(`{"v.bias":{"dtype":"BF16","shape":[4],"data_offsets":[0,8]}}`, zeros(8)),
			"tensor v.bias has dtype BF16; simdrl checkpoints hold F32"},
		{"dtype I64 of a float32's size", file(`{"v.bias":{"dtype":"I64","shape":[2],"data_offsets":[0,8]}}`, zeros(8)),
			"tensor v.bias has shape [2] (2 int64 = 16 bytes) but data_offsets [0, 8] span 8 bytes"},
		{"dtype with a newline", file(`{"v.bias":{"dtype":"F3\n2","shape":[1],"data_offsets":[0,4]}}`, zeros(4)),
			`tensor v.bias has dtype "F3\n2"; simdrl checkpoints hold F32`},
		{"dtype empty", file(`{"v.bias":{"dtype":"","shape":[1],"data_offsets":[0,4]}}`, zeros(4)), `tensor v.bias has dtype ""`},
		{"name with a newline", file(`{"emb\nweight":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, zeros(4)),
			`tensor name "emb\nweight" holds a non-printable character`},
		{"name with a line separator", file("{\"a\u2028b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", zeros(4)),
			`tensor name "a\u2028b" holds a non-printable character`},
		{"duplicate names with a newline", file(`{"a\tb":{},"a\tb":{}}`, nil), `duplicate tensor "a\tb"`},
		{"dtype not string", file(`{"w":{"dtype":32,"shape":[2],"data_offsets":[0,8]}}`, zeros(8)), "tensor w: dtype is a number, not a string"},
		{"unknown field", file(`{"w":{`+w+`,"stride":[1]}}`, zeros(8)), `tensor w: unknown field "stride"`},
		{"duplicate field", file(`{"w":{`+w+`,"dtype":"F32"}}`, zeros(8)), "tensor w: duplicate field dtype"},
		{"shape product", file(`{"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,20]}}`, zeros(20)),
			"tensor w has shape [2 3] (6 float32 = 24 bytes) but data_offsets [0, 20] span 20 bytes"},
		{"shape overflow", file(`{"w":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,8]}}`, zeros(8)),
			"tensor w has shape [4294967296 4294967296 16] (too many elements)"},
		{"shape too large for int", file(`{"w":{"dtype":"F32","shape":[99999999999999999999],"data_offsets":[0,8]}}`, zeros(8)),
			"tensor w: shape: element 0 (99999999999999999999) is too large"},
		{"shape negative", file(`{"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}`, zeros(8)), "tensor w: shape: element 0 (-2) is not a non-negative integer"},
		{"shape fraction", file(`{"w":{"dtype":"F32","shape":[2.0],"data_offsets":[0,8]}}`, zeros(8)), "tensor w: shape: element 0 (2.0) is not a non-negative integer"},
		{"shape string", file(`{"w":{"dtype":"F32","shape":["2"],"data_offsets":[0,8]}}`, zeros(8)), "tensor w: shape: element 0 is not a number"},
		{"shape not array", file(`{"w":{"dtype":"F32","shape":2,"data_offsets":[0,8]}}`, zeros(8)), "tensor w: shape: a number, not an array"},
		{"offsets three", file(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,4,8]}}`, zeros(8)), "tensor w: data_offsets has 3 numbers"},
		{"offsets out of range", file(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, zeros(4)),
			"tensor w has data_offsets [0, 8] out of range (data buffer of 4 bytes)"},
		{"offsets reversed", file(`{"w":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}}`, zeros(8)), "tensor w has data_offsets [8, 0] out of range"},
		{"overlap", file(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`, zeros(12)),
			"tensor b (bytes 4..12) overlaps tensor a (bytes 0..8)"},
		{"same offsets", file(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, zeros(8)),
			"tensor b (bytes 0..8) overlaps tensor a (bytes 0..8)"},
		{"gap between", file(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}}`, zeros(12)),
			"gap of 4 bytes between tensor a (bytes 0..4) and tensor b (bytes 8..12)"},
		{"gap first", file(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, zeros(8)), "gap of 4 bytes before tensor a (bytes 4..8), the first"},
		{"duplicate names", file(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, zeros(8)),
			"duplicate tensor a"},
		{"duplicate metadata", file(`{"__metadata__":{},"__metadata__":{}}`, nil), "duplicate __metadata__"},
		{"empty name", file(`{"":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, zeros(4)), "tensor with an empty name"},
		{"metadata number", file(`{"__metadata__":{"step":3}}`, nil), `metadata key "step" has a non-string value (a number)`},
		{"metadata object", file(`{"__metadata__":{"cfg":{"lr":1}}}`, nil), `metadata key "cfg" has a non-string value (an object)`},
		{"metadata null value", file(`{"__metadata__":{"x":null}}`, nil), `metadata key "x" has a non-string value (null)`},
		{"metadata not object", file(`{"__metadata__":"pt"}`, nil), "__metadata__ is a string, not an object of strings"},
		{"metadata duplicate key", file(`{"__metadata__":{"k":"1","k":"2"}}`, nil), "duplicate metadata key k"},
		{"trailing bytes", file(`{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, zeros(8)),
			"4 trailing bytes after tensor w (the data buffer holds 8 bytes, tensors end at 4)"},
		{"trailing bytes no tensors", file(`{}`, zeros(3)), "3 trailing bytes after the header"},
		{"trailing after valid", append(append([]byte{}, valid...), 0), "1 trailing bytes after tensor"},
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, c := range brokenCases() {
		t.Run(c.name, func(t *testing.T) {
			f, err := Decode(c.file)
			require.Nil(t, f)
			require.ErrorContains(t, err, c.want)
			require.True(t, strings.HasPrefix(err.Error(), "checkpoint: "), err.Error())
			require.NotContains(t, err.Error(), "\n", "an error is one line")
			t.Log(err)
		})
	}
}

// TestDecodeKeyOrderAndSpacing: Decode depends neither on the order of the
// header's keys nor on its whitespace.
func TestDecodeKeyOrderAndSpacing(t *testing.T) {
	data := make([]byte, 0, 12)
	for _, v := range []float32{1, 2, 3} {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
	}
	h := "{ \"b\" : { \"data_offsets\" : [ 8 , 12 ] , \"shape\" : [ 1 ] , \"dtype\" : \"F32\" } ,\n" +
		"\t\"__metadata__\" : { \"k\" : \"v\" } , \"a\" : {\"shape\":[2],\"dtype\":\"F32\",\"data_offsets\":[0,8]} }\n   "
	f, err := Decode(file(h, data))
	require.NoError(t, err)
	requireSameFile(t, &File{
		Metadata: map[string]string{"k": "v"},
		Tensors:  []Tensor{{Name: "a", Shape: []int{2}, Data: []float32{1, 2}}, {Name: "b", Shape: []int{1}, Data: []float32{3}}},
	}, f)
	// A null __metadata__ is no metadata.
	f, err = Decode(file(`{"__metadata__":null}`, nil))
	require.NoError(t, err)
	require.Empty(t, f.Metadata)
}

// TestDecodePythonFixture decodes a file written by testdata/make_fixture.py
// with Python's struct and json (keys out of data order, ", " separators,
// unpadded header).
func TestDecodePythonFixture(t *testing.T) {
	f, err := ReadFile("testdata/python_written.safetensors")
	require.NoError(t, err)
	requireSameFile(t, &File{
		Metadata: map[string]string{"format": "pt", "writer": "make_fixture.py"},
		Tensors: []Tensor{
			{Name: "emb.weight", Shape: []int{2, 3}, Data: []float32{0, 0.5, 1, 1.5, 2, 2.5}},
			{Name: "v.bias", Shape: []int{1}, Data: []float32{bits(0x80000000)}},
			{Name: "special", Shape: []int{4}, Data: []float32{bits(0x7FC00001), bits(0x7F800000), bits(0xFF800000), bits(0x00000001)}},
			{Name: "scalar", Shape: []int{}, Data: []float32{3.25}},
			{Name: "empty", Shape: []int{0, 4}, Data: []float32{}},
		},
	}, f)
	x, ok := f.Lookup("emb.weight")
	require.True(t, ok)
	require.Equal(t, []int{2, 3}, x.Shape)
}

func TestReadFileErrors(t *testing.T) {
	_, err := ReadFile(t.TempDir() + "/missing.safetensors")
	require.ErrorContains(t, err, "missing.safetensors")
	p := t.TempDir() + "/bad.safetensors"
	require.NoError(t, os.WriteFile(p, withLength(1<<40, "{}"), 0o644))
	_, err = ReadFile(p)
	require.ErrorContains(t, err, "absurd")
	require.ErrorContains(t, err, p)
}

func TestEncodeDeterministic(t *testing.T) {
	a, err := Encode(sample())
	require.NoError(t, err)
	for i := 0; i < 20; i++ { // metadata maps iterate in random order
		b, err := Encode(sample())
		require.NoError(t, err)
		require.True(t, bytes.Equal(a, b))
	}
}
