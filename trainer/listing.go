package trainer

import "github.com/simdrl/simdrl/task"

// setInterrupt hands Options.Interrupt to tr's engine (Engine.SetInterrupt)
// and keeps it for the trainer's own long calls into the task (listed).
func (tr *Trainer) setInterrupt(stop <-chan struct{}) {
	tr.interrupt = stop
	tr.e.SetInterrupt(stop)
}

// listed is level's instances of split (cached: the stop rule lists the
// training split at every confirmation), or nil when there are more than
// maxEnumerated. A listing is one call into the task that nothing can cut
// (the branching tape's 16,000 instances of a level take seconds on a
// loaded machine), so it runs on a goroutine of its own and tr.interrupt
// ends the wait for it: ErrInterrupted at once, the listing left to finish
// unobserved and dropped. A panic in it is the task's error
// (task.PanicError).
func (tr *Trainer) listed(en task.Enumerator, level int, split task.Split) ([]task.Instance, error) {
	key := [2]int{level, int(split)}
	if ins, ok := tr.lists[key]; ok {
		return ins, nil
	}
	if interrupted(tr.interrupt) {
		return nil, ErrInterrupted
	}
	type listing struct {
		ins []task.Instance
		err error
	}
	done := make(chan listing, 1) // never blocks the listing left behind
	go func() {
		var l listing
		defer func() { done <- l }()
		defer recoverTask(tr.task, &l.err)
		l.ins = en.Instances(level, split, maxEnumerated+1)
	}()
	var l listing
	select {
	case l = <-done:
	case <-tr.interrupt:
		return nil, ErrInterrupted
	}
	if l.err != nil {
		return nil, l.err
	}
	if len(l.ins) > maxEnumerated {
		l.ins = nil
	}
	if tr.lists == nil {
		tr.lists = map[[2]int][]task.Instance{}
	}
	tr.lists[key] = l.ins
	return l.ins, nil
}
