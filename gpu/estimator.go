package gpu

import (
	"fmt"

	"github.com/simdrl/simdrl/trainer"
)

// checkEstimator refuses what the CUDA kernels do not do yet: the group
// estimators and groups of episodes that share an instance (the kernels
// draw one instance per episode, env.cuh and draw.go). The CPU engine
// does both.
func checkEstimator(cfg trainer.Config) error {
	switch {
	case cfg.Estimator != "":
		return &trainer.FieldError{Field: "estimator", Problem: fmt.Sprintf("%s: the CUDA engine has only the -baseline estimators (sum, step) so far; train it with -device cpu", cfg.Estimator)}
	case cfg.GroupSize() > 1:
		return &trainer.FieldError{Field: "group", Problem: fmt.Sprintf("%d: the CUDA engine draws one instance per episode so far; train groups with -device cpu", cfg.Group)}
	}
	return nil
}
