package cpu

import (
	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/trainer"
)

// Explain plays the first count explanation tasks of stage greedily and
// explains each (trainer.Engine).
func (e *Engine) Explain(stage, count int) ([]trainer.Explanation, error) {
	tasks := make([]env.Task, count)
	for i := range tasks {
		tasks[i] = trainer.ExplainTask(e.key, stage, i)
	}
	progs, err := e.GreedyPrograms(tasks)
	if err != nil {
		return nil, err
	}
	out := make([]trainer.Explanation, count)
	T := e.cfg.Steps
	for i, task := range tasks {
		out[i] = trainer.NewExplanation(task, progs[i*T:(i+1)*T])
	}
	return out, nil
}
