package task

import "fmt"

// Open returns the task named name: "seed" (levels and partialCredit must
// be unset: its curriculum and reward are the reference's) or "calc" (levels
// is its curriculum, "" for the default; partialCredit the weight of the
// inner values held).
func Open(name, levels string, partialCredit float64) (Task, error) {
	switch name {
	case "seed":
		if levels != "" {
			return nil, fmt.Errorf("the seed task has fixed stages; levels are written for calc")
		}
		if partialCredit != 0 {
			return nil, fmt.Errorf("the seed task's reward is the reference's; partial credit is calc's")
		}
		return Seed(), nil
	case "calc":
		return Calc(levels, partialCredit)
	}
	return nil, fmt.Errorf("unknown task %q (want seed or calc)", name)
}
