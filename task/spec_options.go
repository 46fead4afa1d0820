package task

import (
	"fmt"
	"strconv"
	"strings"
)

// specOption is one key=value of a task spec.
type specOption struct{ key, value string }

// specOptions splits a task spec, "key=value; key=value; …", into its
// options in order (blanks trimmed, empty options skipped), refusing an
// option that is not key=value and a key given twice. takes says what the
// task takes, for the first error ("calc takes levels=…; partial_credit=…").
func specOptions(spec, takes string) ([]specOption, error) {
	var out []specOption
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
		out = append(out, specOption{key, value})
	}
	return out, nil
}

// parsePartialCredit reads a partial_credit value (its range is the spec's
// Check).
func parsePartialCredit(value string) (float64, error) {
	pc, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return 0, &SpecError{"partial_credit", fmt.Errorf("%q is not a number", value)}
	}
	return pc, nil
}
