package trainer

import "github.com/simdrl/simdrl/task"

// The untuned recipe: what the default recipe changes for a task that
// declares no tuning of its own (task.Tuned), a user's new task. The
// default recipe's 600 updates and an entropy bonus decaying over them
// are the seed task's; a new task that needs memory (examples/customtask's
// reverse) or observation (its lock) was left unsolved by them. These
// settings were measured on those two over 20 seeds (docs/tasks.md,
// "Tuning a new task"); the stop rule ends a run that is solved early, so a
// longer schedule costs only the runs that need it. A task that declares
// its tuning (calc, expr, tape; the seed task keeps the recipe as it is)
// is unchanged by them.
const (
	UntunedUpdates        = 10000 // the schedule's length: at most
	UntunedEntropyUpdates = 2000  // the entropy bonus's decay to 0, then practice until the stop rule
)

// untuned is the tuning the default recipe gives t when t declares none:
// the untuned schedule, and a context read token by token for a task that
// says its context's order matters (task.OrderSensitive), which a bag
// averages away.
func untuned(t task.Task) task.Tuning {
	tu := task.Tuning{Updates: UntunedUpdates, EntropyUpdates: UntunedEntropyUpdates}
	if o, ok := t.(task.OrderSensitive); ok && o.OrderSensitive() {
		tu.Context = ContextRead
	}
	return tu
}

// tuningOf is the tuning the default recipe gives t: its own
// (task.Tuned), or the untuned one.
func tuningOf(t task.Task) task.Tuning {
	if tt, ok := t.(task.Tuned); ok {
		return tt.DefaultTuning()
	}
	return untuned(t)
}
