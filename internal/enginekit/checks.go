package enginekit

import (
	"fmt"
	"math"
)

// CheckLoss refuses update u when its loss is not finite: every engine
// skips the optimiser step then and reports the update it could not apply.
func CheckLoss(u int, loss float64) error {
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return fmt.Errorf("update %d: the loss is %v; parameters left as after update %d", u, loss, u-1)
	}
	return nil
}

// CheckGradNorm refuses update u when its gradient norm is not finite.
func CheckGradNorm(u int, norm float64) error {
	if math.IsNaN(norm) || math.IsInf(norm, 0) {
		return fmt.Errorf("update %d: the gradient norm is %v; parameters left as after update %d", u, norm, u-1)
	}
	return nil
}
