package taskkit

import (
	"fmt"
	"strconv"

	"github.com/simdrl/simdrl/task"
)

// MaxPartialCredit bounds the partial credit of the calculator's tasks
// (calc, expr) and the tape's.
const MaxPartialCredit = 10

// ParsePartialCredit reads a partial_credit value (its range is the spec's
// Check).
func ParsePartialCredit(value string) (float64, error) {
	pc, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return 0, &task.SpecError{Key: "partial_credit", Err: fmt.Errorf("%q is not a number", value)}
	}
	return pc, nil
}

// InnerCreditNote is what calc's and expr's partial credit adds to mean
// rewards (task.RewardNoter): "" without any.
func InnerCreditNote(partialCredit float64) string {
	if partialCredit > 0 {
		return "partial credit for the inner values held can take them above 1"
	}
	return ""
}
