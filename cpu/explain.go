package cpu

import (
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// Explain plays the first count explanation instances of level greedily
// and explains each (trainer.Engine).
func (e *Engine) Explain(level, count int) ([]task.Explanation, error) {
	ins := make([]task.Instance, count)
	for i := range ins {
		ins[i] = trainer.ExplainInstance(e.task, e.key, level, i)
	}
	progs, err := e.GreedyPrograms(ins)
	if err != nil {
		return nil, err
	}
	out := make([]task.Explanation, count)
	T := e.cfg.Steps
	for i := range ins {
		out[i] = e.task.Explain(&ins[i], progs[i*T:(i+1)*T])
	}
	return out, nil
}
