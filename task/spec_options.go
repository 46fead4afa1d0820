package task

import (
	"fmt"
	"strings"
)

// SpecError is a problem with one option of a task's spec: Key names it
// ("levels", "partial_credit"; "task_spec" for the spec as a whole), so that
// a command line can name the flag that set it.
type SpecError struct {
	Key string
	Err error
}

func (e *SpecError) Error() string { return e.Key + ": " + e.Err.Error() }
func (e *SpecError) Unwrap() error { return e.Err }

// SpecOption is one key=value of a task spec.
type SpecOption struct{ Key, Value string }

// SpecOptions splits a task spec, "key=value; key=value; …", into its
// options in order (blanks trimmed, empty options skipped), refusing an
// option that is not key=value and a key given twice. takes says what the
// task takes, for the first error ("calc takes levels=…; partial_credit=…").
func SpecOptions(spec, takes string) ([]SpecOption, error) {
	var out []SpecOption
	seen := map[string]bool{}
	for _, opt := range strings.Split(spec, ";") {
		if strings.TrimSpace(opt) == "" {
			continue
		}
		key, value, ok := strings.Cut(opt, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case !ok:
			return nil, &SpecError{"task_spec", fmt.Errorf("%q is not key=value (%s)", strings.TrimSpace(opt), takes)}
		case seen[key]:
			return nil, &SpecError{"task_spec", fmt.Errorf("%s given twice", key)}
		}
		seen[key] = true
		out = append(out, SpecOption{key, value})
	}
	return out, nil
}
