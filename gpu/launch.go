//go:build cgo

package gpu

// Launching a kernel: the rollout and backward kernels by tile, the 1-D
// grids of the elementwise kernels, and the test hook (onLaunch).

// The rollout and backward kernels by episodes per thread (tileChoices):
// the bag's, and a reading layout's (R > 0: the kernels with the reading
// steps compiled in, so that the bag's keep their registers).
var (
	rolloutKernel     = map[int]string{1: "simdrl_rollout_e1", 2: "simdrl_rollout_e2", 4: "simdrl_rollout_e4", 8: "simdrl_rollout_e8"}
	backwardKernel    = map[int]string{1: "simdrl_backward_e1", 2: "simdrl_backward_e2", 4: "simdrl_backward_e4", 8: "simdrl_backward_e8"}
	rolloutReadKernel = map[int]string{1: "simdrl_rollout_read_e1", 2: "simdrl_rollout_read_e2", 4: "simdrl_rollout_read_e4",
		8: "simdrl_rollout_read_e8"}
	backwardReadKernel = map[int]string{1: "simdrl_backward_read_e1", 2: "simdrl_backward_read_e2", 4: "simdrl_backward_read_e4",
		8: "simdrl_backward_read_e8"}
	// The tape's (scoreTape), which alone have its machine compiled in; it
	// has no reading ones (NewWithTask refuses a tape task that reads).
	rolloutTapeKernel = map[int]string{1: "simdrl_rollout_tape_e1", 2: "simdrl_rollout_tape_e2", 4: "simdrl_rollout_tape_e4", 8: "simdrl_rollout_tape_e8"}
)

// rolloutName and backwardName are the kernels for EPT episodes per thread.
func (e *engine) rolloutName(ept int) string {
	if e.scoreKind == scoreTape {
		return rolloutTapeKernel[ept]
	}
	if e.R > 0 {
		return rolloutReadKernel[ept]
	}
	return rolloutKernel[ept]
}

func (e *engine) backwardName(ept int) string {
	if e.R > 0 {
		return backwardReadKernel[ept]
	}
	return backwardKernel[ept]
}

// launch starts kernel name on the device (Device.launch checks a against
// the ABI table and the PTX), or hands it to onLaunch (tests).
func (e *engine) launch(name string, grid, block [3]int, smem int, a *args) error {
	if e.onLaunch != nil {
		return e.onLaunch(name, a)
	}
	return e.d.launch(name, grid, block, smem, a)
}

// gridFor is a 1-D grid of 256-thread blocks covering n elements.
func gridFor(n int) [3]int { return [3]int{max(1, min(ceilDiv(n, 256), 65535)), 1, 1} }

var block256 = [3]int{256, 1, 1}
