package task

// TrainingSteered is a task whose held-out split is only a test, as an
// Itemized task's held-out items are: its runs are steered (the focus
// weights, unlocking, the stop rule and its confirmations) by evaluations
// of its training split. Countdown's are: its final evaluation plays the
// same listed held-out instances an evaluation of the held-out split
// would, so a stop rule confirmed on them would certify the figure it is
// then judged by (issue 53).
type TrainingSteered interface {
	Task
	SteersOnTraining() bool
}
