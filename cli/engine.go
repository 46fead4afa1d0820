package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/gpu"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// openEngine opens the engine that -device names for the resolved config,
// wraps it in the trainer, restores -resume's checkpoint or loads -load's
// weights into it, and refuses a plan that contradicts the checkpoint
// (checkPlan). On an error (a usageError) the engine is closed; otherwise
// closing it is the caller's, or Drive's.
func openEngine(cl *commandLine, r *resolved, stderr io.Writer) (*trainer.Trainer, trainer.Engine, error) {
	fl, cfg := cl.fl, r.cfg
	tr, engine, err := openTrainer(fl.device, cfg, &cl.task)
	if err != nil && fl.device == "cpu" {
		return nil, nil, usageErrorf("%v", err)
	} else if err != nil {
		return nil, nil, usageErrorf("-device %s: %v", fl.device, err)
	}
	if err := restoreOrLoad(cl, r, tr); err != nil {
		engine.Close()
		return nil, nil, err
	}
	if err := checkPlan(cl, cfg, tr.Updates()); err != nil {
		engine.Close()
		return nil, nil, usageErrorf("%v", err)
	}
	if t, err := cl.task.open(cfg); err == nil {
		if err := task.Guard(cfg.Task, "opened", func() error { warnOrder(stderr, cfg, t); return nil }); err != nil {
			engine.Close()
			return nil, nil, usageErrorf("%v", err)
		}
	}
	return tr, engine, nil
}

// restoreOrLoad puts -resume's checkpoint, or -load's weights, into tr:
// a refusal names the flags that would make it fit.
func restoreOrLoad(cl *commandLine, r *resolved, tr *trainer.Trainer) error {
	fl, cfg := cl.fl, r.cfg
	switch {
	case r.resume != nil:
		if err := tr.Restore(r.resume); err != nil {
			saved, _ := trainer.ReadCheckpointConfig(r.resume)
			if msg, ok := cl.otherTask(fl.resume, saved); ok {
				return usageErrorf("%s", msg)
			}
			var se *trainer.ShapeError
			if errors.As(err, &se) {
				return usageErrorf("-resume %s: %v (%s)", fl.resume, se.Error(), loadHint(&saved, cfg, se))
			}
			if hint := observationHint(err, &saved, cfg, r.resume); hint != "" {
				return usageErrorf("-resume %s: %v (%s)", fl.resume, err, hint)
			}
			if flags, was := cl.stateChanges(saved, cfg); len(flags) > 0 {
				return usageErrorf("-resume %s: %s: the checkpoint was trained with %s, and its saved state does not fit (%v); -load %s starts a new run from its weights",
					fl.resume, strings.Join(flags, " and "), strings.Join(was, " and "), err, fl.resume)
			}
			return usageErrorf("-resume %s: %v", fl.resume, err)
		}
	case r.load != nil:
		if err := tr.LoadWeights(r.load); err != nil {
			var se *trainer.ShapeError
			if errors.As(err, &se) {
				hint := loadHint(r.loaded, cfg, se)
				if r.loadedErr != nil {
					hint = "only its weights were read, its " + r.loadedErr.Error() + "; " + hint
				}
				return usageErrorf("-load %s: %v (%s)", fl.load, se.Error(), hint)
			}
			if hint := observationHint(err, r.loaded, cfg, r.load); hint != "" {
				return usageErrorf("-load %s: %v (%s)", fl.load, err, hint)
			}
			return usageErrorf("-load %s: %v", fl.load, err)
		}
	}
	return nil
}

// checkPlan refuses, before any work, what the configuration that will run
// contradicts: an explicit -updates not above the updates a resumed run has
// done, a -plot of a run that makes no evaluation. (A complete run resumed
// without -updates only evaluates, as -eval-only would.)
func checkPlan(cl *commandLine, cfg trainer.Config, done int) error {
	fl := cl.fl
	if fl.evalOnly {
		return nil
	}
	if fl.resume != "" && cl.changed("updates") && cfg.Updates <= done {
		return fmt.Errorf("-updates %d is not above the %d updates the checkpoint has done: nothing would train (-eval-only evaluates it)", cfg.Updates, done)
	}
	if fl.plot != "" && (cfg.EvalEvery == 0 || cfg.Updates/cfg.EvalEvery <= done/cfg.EvalEvery) {
		return fmt.Errorf("-plot: this run makes no evaluations to draw (it needs -eval-every > 0 and at most the updates it trains, %d)", cfg.Updates-done)
	}
	return nil
}

// engines builds a training engine by its -device name for a config and its
// task, opened (and so validated) once by the command. Every engine
// implements trainer.Engine; a new one is a new line here.
var engines = map[string]func(trainer.Config, task.Task) (trainer.Engine, error){
	"cpu": func(cfg trainer.Config, t task.Task) (trainer.Engine, error) {
		e, err := cpu.NewOpened(cfg, t)
		if err != nil {
			return nil, err // not a nil *cpu.Engine inside a non-nil interface
		}
		return e, nil
	},
	"cuda": gpu.NewOpened,
}

// openTrainer builds the device's engine for cfg and its task, opened
// once (o), and the trainer that drives the engine (closing the engine is
// the caller's, or Drive's).
func openTrainer(device string, cfg trainer.Config, o *openedTask) (*trainer.Trainer, trainer.Engine, error) {
	t, err := o.open(cfg)
	if err != nil {
		return nil, nil, err
	}
	var e trainer.Engine
	err = task.Guard(cfg.Task, "opened", func() error { // an engine sizes itself by the task's code
		e, err = engines[device](cfg, t)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	tr, err := trainer.New(cfg, t, e)
	if err != nil {
		e.Close()
		return nil, nil, err
	}
	return tr, e, nil
}
