package trainer

import (
	"bytes"
	"encoding/json"
	"math"
)

// rates are a report's figures by level. A level that was not played (the
// split has no instance of it: the tape's longer sizes have no training
// items, most levels no transfer split) is NaN here and null in the JSON:
// never a 0 that was never measured.
type rates []float64

// MarshalJSON writes a level not played as null.
func (r rates) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, x := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		if math.IsNaN(x) {
			b.WriteString("null")
			continue
		}
		v, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// UnmarshalJSON reads null as a level not played (NaN).
func (r *rates) UnmarshalJSON(data []byte) error {
	var xs []*float64
	if err := json.Unmarshal(data, &xs); err != nil {
		return err
	}
	if xs == nil {
		*r = nil
		return nil
	}
	*r = make(rates, len(xs))
	for i, x := range xs {
		(*r)[i] = math.NaN()
		if x != nil {
			(*r)[i] = *x
		}
	}
	return nil
}

// ratesOf are value of each result, NaN for a level not played.
func ratesOf(ev []EvalResult, value func(EvalResult) float64) rates {
	var out rates
	for _, r := range ev {
		x := value(r)
		if r.Episodes == 0 {
			x = math.NaN()
		}
		out = append(out, x)
	}
	return out
}
