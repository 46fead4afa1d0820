package cli

import (
	"io"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/trainer"
)

// resolved is a run's configuration as the command line and its checkpoint
// give it, before any engine exists.
type resolved struct {
	cfg       trainer.Config
	resume    *checkpoint.File // -resume's checkpoint, or nil
	load      *checkpoint.File // -load's, or nil
	loaded    *trainer.Config  // the -load checkpoint's config, when it has one
	loadedErr error            // why it has none: the hint of a shape error
}

// resolveConfig is the run's config: the checkpoint's after -resume (flags
// given explicitly on top), the recipe's otherwise, with a -load
// checkpoint's task, levels and width unless flags say otherwise. A
// checkpoint's levels are parsed (and searched) once, interruptibly, before
// anything else uses them. Its errors are usageErrors.
func resolveConfig(cl *commandLine, stderr io.Writer) (*resolved, error) {
	fl := cl.fl
	r := &resolved{}
	var err error
	switch {
	case fl.resume != "":
		if r.resume, err = checkpoint.ReadFile(fl.resume); err != nil {
			return nil, usageErrorf("-resume: %v", err)
		}
		saved, err := trainer.ReadCheckpointConfig(r.resume)
		if err == nil {
			prepareTask(saved, stderr)
			err = cl.task.validate(saved)
		}
		if err != nil {
			return nil, usageErrorf("-resume %s: %v", fl.resume, checkpointConfigError(err))
		}
		prepareFlagTask(cl, saved, stderr)
		if r.cfg, err = cl.resumed(saved); err != nil {
			if msg, ok := cl.otherTask(fl.resume, saved); ok {
				return nil, usageErrorf("%s", msg)
			}
			return nil, usageErrorf("-resume %s: %v", fl.resume, err)
		}
	case fl.load != "":
		if r.load, err = checkpoint.ReadFile(fl.load); err != nil {
			return nil, usageErrorf("-load: %v", err)
		}
		// A file whose config cannot be read gives only its weights; one
		// whose config reads is applied, so it is validated as -resume's.
		if saved, err := trainer.ReadCheckpointConfig(r.load); err == nil {
			prepareTask(saved, stderr)
			if err := cl.task.validate(saved); err != nil {
				return nil, usageErrorf("-load %s: %v", fl.load, checkpointConfigError(err))
			}
			r.loaded = &saved
		} else {
			r.loadedErr = err
		}
		prepareFlagTask(cl, trainer.Config{}, stderr)
		if r.cfg, err = cl.fresh(r.loaded); err != nil {
			return nil, usageErrorf("%v", err)
		}
	default:
		prepareFlagTask(cl, trainer.Config{}, stderr)
		if r.cfg, err = cl.fresh(nil); err != nil {
			return nil, usageErrorf("%v", err)
		}
	}
	return r, nil
}
