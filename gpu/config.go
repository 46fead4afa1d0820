package gpu

import (
	"errors"

	"github.com/simdrl/simdrl/trainer"
)

// checkConfig refuses, in one line and before the device is opened, a
// configuration the CUDA kernels do not compute: a policy that reads its
// context (-context read) needs reading steps the kernels do not have.
func checkConfig(cfg trainer.Config) error {
	if cfg.Context == trainer.ContextRead {
		return errors.New("gpu: the CUDA kernels do not read the context (-context read): they start from the bag of its tokens; train it on the CPU")
	}
	return nil
}
