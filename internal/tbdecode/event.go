package tbdecode

import (
	"fmt"
	"math"
)

// Event is what TensorBoard reads of an Event message for scalars
// (tensorflow/core/util/event.proto): wall_time (1, double), step (2,
// int64), file_version (3, string), and summary (5) → Summary's repeated
// value (1) → Value's tag (1, string) and simple_value (2, float).
type Event struct {
	WallTime    float64
	Step        int64
	FileVersion string
	Values      []Value
}

// Value is one scalar of a Summary.
type Value struct {
	Tag         string
	SimpleValue float32
}

// DecodeEvent decodes one record's Event; a field it reads with another
// wire type than the specification's is an error, unknown fields are
// skipped.
func DecodeEvent(b []byte) (Event, error) {
	var e Event
	fs, err := Fields(b)
	if err != nil {
		return e, err
	}
	for _, f := range fs {
		switch {
		case f.Num == 1 && f.Wire == 1:
			e.WallTime = math.Float64frombits(f.Value)
		case f.Num == 2 && f.Wire == 0:
			e.Step = int64(f.Value)
		case f.Num == 3 && f.Wire == 2:
			e.FileVersion = string(f.Bytes)
		case f.Num == 5 && f.Wire == 2:
			vs, err := decodeSummary(f.Bytes)
			if err != nil {
				return e, fmt.Errorf("summary: %w", err)
			}
			e.Values = append(e.Values, vs...)
		case f.Num == 1 || f.Num == 2 || f.Num == 3 || f.Num == 5:
			return e, fmt.Errorf("event field %d with wire type %d", f.Num, f.Wire)
		}
	}
	return e, nil
}

func decodeSummary(b []byte) ([]Value, error) {
	fs, err := Fields(b)
	if err != nil {
		return nil, err
	}
	var out []Value
	for _, f := range fs {
		if f.Num != 1 {
			continue
		}
		if f.Wire != 2 {
			return nil, fmt.Errorf("value with wire type %d", f.Wire)
		}
		vf, err := Fields(f.Bytes)
		if err != nil {
			return nil, err
		}
		var v Value
		for _, g := range vf {
			switch {
			case g.Num == 1 && g.Wire == 2:
				v.Tag = string(g.Bytes)
			case g.Num == 2 && g.Wire == 5:
				v.SimpleValue = math.Float32frombits(uint32(g.Value))
			case g.Num <= 2:
				return nil, fmt.Errorf("value field %d with wire type %d", g.Num, g.Wire)
			}
		}
		out = append(out, v)
	}
	return out, nil
}
