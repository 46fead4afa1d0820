package tbdecode

import (
	"encoding/binary"
	"fmt"
)

// Field is one field of a protobuf message as the wire format has it:
// Value holds a varint, or a fixed64's or fixed32's bits; Bytes a
// length-delimited field's contents.
type Field struct {
	Num, Wire int
	Value     uint64
	Bytes     []byte
}

// Fields parses a message into its fields, in order, of any number and of
// wire types 0 (varint), 1 (fixed64), 2 (length-delimited) and 5
// (fixed32); the deprecated groups (3, 4) are an error.
func Fields(b []byte) ([]Field, error) {
	var out []Field
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, fmt.Errorf("bad key varint")
		}
		b = b[n:]
		f := Field{Num: int(key >> 3), Wire: int(key & 7)}
		if f.Num == 0 {
			return nil, fmt.Errorf("field number 0")
		}
		switch f.Wire {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return nil, fmt.Errorf("field %d: bad varint", f.Num)
			}
			f.Value, b = v, b[n:]
		case 1:
			if len(b) < 8 {
				return nil, fmt.Errorf("field %d: truncated fixed64", f.Num)
			}
			f.Value, b = binary.LittleEndian.Uint64(b), b[8:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return nil, fmt.Errorf("field %d: bad length", f.Num)
			}
			f.Bytes, b = b[n:n+int(l)], b[n+int(l):]
		case 5:
			if len(b) < 4 {
				return nil, fmt.Errorf("field %d: truncated fixed32", f.Num)
			}
			f.Value, b = uint64(binary.LittleEndian.Uint32(b)), b[4:]
		default:
			return nil, fmt.Errorf("field %d: wire type %d", f.Num, f.Wire)
		}
		out = append(out, f)
	}
	return out, nil
}
