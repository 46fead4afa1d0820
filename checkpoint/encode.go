package checkpoint

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Encode serialises f as a safetensors file. Tensors keep the given order in
// the header and in the data; metadata keys are sorted. It fails, naming the
// tensor, on an empty, reserved, duplicate or non-UTF-8 name, an unknown
// dtype, a negative dimension, or a shape whose product is not the number of
// values; and on a header larger than MaxHeader, which Decode would refuse.
func Encode(f *File) ([]byte, error) {
	if f == nil {
		return nil, fmt.Errorf("checkpoint: encode: nil file")
	}
	var h bytes.Buffer
	h.WriteByte('{')
	first := true
	sep := func() {
		if !first {
			h.WriteByte(',')
		}
		first = false
	}
	if len(f.Metadata) > 0 {
		keys := make([]string, 0, len(f.Metadata))
		for k := range f.Metadata {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		sep()
		writeString(&h, metadataKey)
		h.WriteString(":{")
		for i, k := range keys {
			v := f.Metadata[k]
			if !utf8.ValidString(k) || !utf8.ValidString(v) {
				return nil, fmt.Errorf("checkpoint: encode: metadata key %q or its value is not valid UTF-8", k)
			}
			if i > 0 {
				h.WriteByte(',')
			}
			writeString(&h, k)
			h.WriteByte(':')
			writeString(&h, v)
		}
		h.WriteByte('}')
	}
	seen := make(map[string]bool, len(f.Tensors))
	offset := 0
	for _, t := range f.Tensors {
		if err := checkName(t.Name, seen); err != nil {
			return nil, fmt.Errorf("checkpoint: encode: %w", err)
		}
		size := t.Type().size()
		if size == 0 {
			return nil, fmt.Errorf("checkpoint: encode: tensor %s has dtype %s, not one of F32, F64, I32, I64", t.Name, quoteOdd(string(t.DType)))
		}
		n, ok := elements(t.Shape, math.MaxInt/8)
		if !ok {
			return nil, fmt.Errorf("checkpoint: encode: tensor %s has invalid shape %v", t.Name, t.Shape)
		}
		if n != t.Len() {
			return nil, fmt.Errorf("checkpoint: encode: tensor %s has shape %v (%d elements) but %d values", t.Name, t.Shape, n, t.Len())
		}
		sep()
		writeString(&h, t.Name)
		fmt.Fprintf(&h, `:{"dtype":"%s","shape":[`, t.Type())
		for i, s := range t.Shape {
			if i > 0 {
				h.WriteByte(',')
			}
			h.WriteString(strconv.Itoa(s))
		}
		fmt.Fprintf(&h, `],"data_offsets":[%d,%d]}`, offset, offset+size*n)
		offset += size * n
	}
	h.WriteByte('}')
	for h.Len()%8 != 0 {
		h.WriteByte(' ')
	}
	if h.Len() > maxHeader {
		// Decode would refuse it: no file is written that cannot be read back.
		return nil, fmt.Errorf("checkpoint: encode: the header would be %d bytes, more than the %d MiB a reader accepts", h.Len(), maxHeader>>20)
	}
	out := make([]byte, 8, 8+h.Len()+offset)
	binary.LittleEndian.PutUint64(out, uint64(h.Len()))
	out = append(out, h.Bytes()...)
	for _, t := range f.Tensors {
		out = t.appendData(out)
	}
	return out, nil
}

// checkName rejects names that no safetensors file can hold twice or at all,
// and names with a non-printable character (a newline, a tab, a control or
// format character: no state_dict has them, and they would break error
// messages and logs that print the name).
func checkName(name string, seen map[string]bool) error {
	switch {
	case name == "":
		return fmt.Errorf("tensor with an empty name")
	case name == metadataKey:
		return fmt.Errorf("tensor named %s (reserved for the metadata)", metadataKey)
	case !utf8.ValidString(name):
		return fmt.Errorf("tensor name %q is not valid UTF-8", name)
	case strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		return fmt.Errorf("tensor name %q holds a non-printable character", name)
	case seen[name]:
		return fmt.Errorf("duplicate tensor %s", name)
	}
	seen[name] = true
	return nil
}

// writeString writes s as a JSON string without HTML escaping.
func writeString(b *bytes.Buffer, s string) {
	e := json.NewEncoder(b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}
