package trainer

import "github.com/simdrl/simdrl/task"

// evaluateWhole runs update u's periodic evaluation with the interrupt off,
// then puts it back. The curriculum observes that evaluation, so it belongs
// to the run's trajectory: cut short, the checkpoint saved after update u
// would resume without it and part from the uninterrupted run. The loop
// checks the interrupt right after it.
func evaluateWhole(e Engine, stop <-chan struct{}, episodes int, u uint32) ([]EvalResult, error) {
	e.SetInterrupt(nil)
	defer e.SetInterrupt(stop)
	return e.EvaluateAll(episodes, u, task.HeldOut)
}
