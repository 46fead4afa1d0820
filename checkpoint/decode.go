package checkpoint

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Decode parses a safetensors file. It is strict: it rejects, with an error
// that names the problem and the tensor, a truncated file; a header length
// larger than the file or than MaxHeader; a header that is not valid UTF-8
// JSON object; a tensor without dtype, shape or data_offsets, or with other
// fields; a dtype other than F32, F64, I32 and I64; a shape whose product is
// not the byte length over the dtype's size; offsets outside the data buffer; tensors that overlap or leave gaps;
// duplicate names or keys; metadata values that are not strings; and trailing
// bytes after the last tensor. The order of the header's keys does not
// matter: tensors come back in the order of their data (ties, possible only
// between empty tensors, in header order). Decode never panics.
func Decode(b []byte) (*File, error) {
	if len(b) < 8 {
		return nil, fmt.Errorf("checkpoint: truncated file: %d bytes, less than the 8-byte header length", len(b))
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(maxHeader) {
		return nil, fmt.Errorf("checkpoint: header length %d is absurd (more than %d MiB)", n, maxHeader>>20)
	}
	if n > uint64(len(b)-8) {
		return nil, fmt.Errorf("checkpoint: truncated file: header length %d larger than the %d bytes that follow it", n, len(b)-8)
	}
	header, buf := b[8:8+n], b[8+n:]
	if !utf8.Valid(header) {
		return nil, fmt.Errorf("checkpoint: header is not valid UTF-8")
	}
	if len(header) == 0 || header[0] != '{' {
		return nil, fmt.Errorf("checkpoint: header is not a JSON object (it must start with '{')")
	}
	entries, err := ObjectFields(header, "tensor")
	if err != nil {
		return nil, fmt.Errorf("checkpoint: header: %w", err)
	}

	f := &File{Metadata: map[string]string{}}
	type span struct {
		begin, end int
	}
	var spans []span
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Key == metadataKey {
			if err := decodeMetadata(e.Value, f.Metadata); err != nil {
				return nil, fmt.Errorf("checkpoint: %w", err)
			}
			continue
		}
		name := e.Key
		if err := checkName(name, seen); err != nil {
			return nil, fmt.Errorf("checkpoint: %w", err)
		}
		info, err := decodeInfo(name, e.Value)
		if err != nil {
			return nil, fmt.Errorf("checkpoint: %w", err)
		}
		dtype := DType(info.dtype)
		size := dtype.size()
		if size == 0 {
			return nil, fmt.Errorf("checkpoint: tensor %s has dtype %s; simdrl checkpoints hold F32 (and F64, I32, I64 for a run's state)", name, quoteOdd(info.dtype))
		}
		begin, end := info.offsets[0], info.offsets[1]
		if begin > end || end > len(buf) {
			return nil, fmt.Errorf("checkpoint: tensor %s has data_offsets [%d, %d] out of range (data buffer of %d bytes)", name, begin, end, len(buf))
		}
		count, ok := elements(info.shape, len(buf)/size+1)
		if !ok || size*count != end-begin {
			what := "too many elements"
			if ok {
				what = fmt.Sprintf("%d %s = %d bytes", count, dtype.element(), size*count)
			}
			return nil, fmt.Errorf("checkpoint: tensor %s has shape %v (%s) but data_offsets [%d, %d] span %d bytes", name, info.shape, what, begin, end, end-begin)
		}
		if dtype == F32 {
			dtype = "" // as Encode's callers give it
		}
		f.Tensors = append(f.Tensors, Tensor{Name: name, Shape: info.shape, DType: dtype})
		spans = append(spans, span{begin, end})
	}

	order := make([]int, len(spans))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		return cmp.Or(cmp.Compare(spans[i].begin, spans[j].begin), cmp.Compare(spans[i].end, spans[j].end))
	})
	sorted := make([]Tensor, len(order))
	pos, prev := 0, -1
	for k, i := range order {
		s, t := spans[i], f.Tensors[i]
		switch {
		case s.begin < pos:
			return nil, fmt.Errorf("checkpoint: tensor %s (bytes %d..%d) overlaps tensor %s (bytes %d..%d)",
				t.Name, s.begin, s.end, f.Tensors[prev].Name, spans[prev].begin, spans[prev].end)
		case s.begin > pos && prev < 0:
			return nil, fmt.Errorf("checkpoint: gap of %d bytes before tensor %s (bytes %d..%d), the first in the data buffer",
				s.begin-pos, t.Name, s.begin, s.end)
		case s.begin > pos:
			return nil, fmt.Errorf("checkpoint: gap of %d bytes between tensor %s (bytes %d..%d) and tensor %s (bytes %d..%d)",
				s.begin-pos, f.Tensors[prev].Name, spans[prev].begin, spans[prev].end, t.Name, s.begin, s.end)
		}
		t.setData(buf[s.begin:s.end])
		sorted[k] = t
		pos, prev = s.end, i
	}
	if pos != len(buf) {
		last := "the header"
		if prev >= 0 {
			last = "tensor " + f.Tensors[prev].Name
		}
		return nil, fmt.Errorf("checkpoint: %d trailing bytes after %s (the data buffer holds %d bytes, tensors end at %d)",
			len(buf)-pos, last, len(buf), pos)
	}
	f.Tensors = sorted
	return f, nil
}

// decodeMetadata adds the string→string object raw to m.
func decodeMetadata(raw json.RawMessage, m map[string]string) error {
	if string(raw) == "null" {
		return nil
	}
	if len(raw) == 0 || raw[0] != '{' {
		return fmt.Errorf("%s is %s, not an object of strings", metadataKey, kind(raw))
	}
	entries, err := ObjectFields(raw, "metadata key")
	if err != nil {
		return fmt.Errorf("%s: %w", metadataKey, err)
	}
	for _, e := range entries {
		var s string
		if len(e.Value) == 0 || e.Value[0] != '"' || json.Unmarshal(e.Value, &s) != nil {
			return fmt.Errorf("metadata key %q has a non-string value (%s); safetensors metadata values are strings", e.Key, kind(e.Value))
		}
		m[e.Key] = s
	}
	return nil
}

// tensorInfo is one tensor's header entry.
type tensorInfo struct {
	dtype   string
	shape   []int
	offsets [2]int
}

func decodeInfo(name string, raw json.RawMessage) (tensorInfo, error) {
	var info tensorInfo
	if len(raw) == 0 || raw[0] != '{' {
		return info, fmt.Errorf("tensor %s: header entry is %s, not an object", name, kind(raw))
	}
	entries, err := ObjectFields(raw, "field")
	if err != nil {
		return info, fmt.Errorf("tensor %s: %w", name, err)
	}
	var haveDtype, haveShape, haveOffsets bool
	for _, e := range entries {
		switch e.Key {
		case "dtype":
			if len(e.Value) == 0 || e.Value[0] != '"' || json.Unmarshal(e.Value, &info.dtype) != nil {
				return info, fmt.Errorf("tensor %s: dtype is %s, not a string", name, kind(e.Value))
			}
			haveDtype = true
		case "shape":
			if info.shape, err = intArray(e.Value); err != nil {
				return info, fmt.Errorf("tensor %s: shape: %w", name, err)
			}
			if info.shape == nil {
				info.shape = []int{}
			}
			haveShape = true
		case "data_offsets":
			offs, err := intArray(e.Value)
			if err != nil {
				return info, fmt.Errorf("tensor %s: data_offsets: %w", name, err)
			}
			if len(offs) != 2 {
				return info, fmt.Errorf("tensor %s: data_offsets has %d numbers, want [begin, end]", name, len(offs))
			}
			info.offsets = [2]int{offs[0], offs[1]}
			haveOffsets = true
		default:
			return info, fmt.Errorf("tensor %s: unknown field %q", name, e.Key)
		}
	}
	switch {
	case !haveDtype:
		return info, fmt.Errorf("tensor %s has no dtype", name)
	case !haveShape:
		return info, fmt.Errorf("tensor %s has no shape", name)
	case !haveOffsets:
		return info, fmt.Errorf("tensor %s has no data_offsets", name)
	}
	return info, nil
}

// intArray parses a JSON array of non-negative integers.
func intArray(raw json.RawMessage) ([]int, error) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, fmt.Errorf("%s, not an array of integers", kind(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var vals []any
	if err := dec.Decode(&vals); err != nil {
		return nil, err
	}
	out := make([]int, len(vals))
	for i, v := range vals {
		num, ok := v.(json.Number)
		if !ok {
			return nil, fmt.Errorf("element %d is not a number", i)
		}
		n, err := strconv.Atoi(string(num))
		if err != nil || n < 0 {
			var ne *strconv.NumError
			if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
				return nil, fmt.Errorf("element %d (%s) is too large", i, num)
			}
			return nil, fmt.Errorf("element %d (%s) is not a non-negative integer", i, num)
		}
		out[i] = n
	}
	return out, nil
}

// quoteOdd returns s as it is when it is made of printable characters other
// than spaces, and quoted otherwise, so that an error message naming a
// string from a file stays one readable line.
func quoteOdd(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if r == ' ' || !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// kind names the JSON type of a raw value, for error messages.
func kind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
