package checkpoint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Field is one key of a JSON object and its raw value.
type Field struct {
	Key   string
	Value json.RawMessage
}

// ObjectFields splits a JSON object into its fields in order, rejecting
// invalid JSON, anything but an object, duplicate keys (named as what, e.g.
// "tensor" or "field") and anything but whitespace after the object. Unlike
// json.Unmarshal it sees every key as written: the header's, and the config
// and state a checkpoint's metadata holds (trainer decodes those strictly).
func ObjectFields(data []byte, what string) ([]Field, error) {
	invalid := func(err error) error {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF // the object was cut short
		}
		return fmt.Errorf("not valid JSON: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil {
		return nil, invalid(err)
	} else if tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []Field
	keys := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, invalid(err)
		}
		key, ok := tok.(string)
		if !ok {
			return nil, invalid(fmt.Errorf("want a key, found %v", tok))
		}
		if keys[key] {
			if key == metadataKey && what == "tensor" {
				return nil, fmt.Errorf("duplicate %s", key)
			}
			return nil, fmt.Errorf("duplicate %s %s", what, quoteOdd(key))
		}
		keys[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, invalid(fmt.Errorf("value of %q: %w", key, err))
		}
		out = append(out, Field{key, raw})
	}
	if tok, err := dec.Token(); err != nil {
		return nil, invalid(err)
	} else if tok != json.Delim('}') {
		return nil, invalid(fmt.Errorf("want the end of the object, found %v", tok))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, invalid(fmt.Errorf("data after the object"))
	}
	return out, nil
}
