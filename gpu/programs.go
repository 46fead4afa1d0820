//go:build cgo

package gpu

// Greedy play of given instances: the actions of each episode.

import (
	"fmt"

	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// greedyRollout runs the greedy rollout s and returns its actions,
// episode-major (s.n×T), in the host's programs buffer (until the next
// call).
func (e *engine) greedyRollout(s rolloutSpec) ([]int32, error) {
	n := s.n
	if _, err := e.rollout(s); err != nil {
		return nil, err
	}
	tok := e.host.tokens[:(e.T+1)*n]
	if err := download(tok, e.tokens); err != nil {
		return nil, err
	}
	out := e.host.programs[:n*e.T]
	for b := 0; b < n; b++ {
		for t := 0; t < e.T; t++ {
			out[b*e.T+t] = tok[(t+1)*n+b]
		}
	}
	return out, nil
}

// greedyPrograms plays the given tasks greedily, at most maxN a launch, and
// returns their actions, episode-major, in a fresh slice (the caller's). An
// interrupt is checked before each launch.
func (e *engine) greedyPrograms(tasks []task.Instance) ([]int32, error) {
	out := make([]int32, 0, len(tasks)*e.T)
	for first := 0; first < len(tasks); first += e.maxN {
		if e.interrupted("launch") {
			return nil, trainer.ErrInterrupted
		}
		part := tasks[first:min(first+e.maxN, len(tasks))]
		packed := e.hostRecords(len(part))
		for i := range part {
			if err := task.Check(e.task, &part[i]); err != nil {
				return nil, fmt.Errorf("gpu: %w", err)
			}
			e.keepInstance(i, &part[i])
			if err := e.pack(packed[record.Words*i:], &part[i]); err != nil {
				return nil, fmt.Errorf("gpu: an instance of task %s: %w", e.task.Name(), err)
			}
		}
		if err := e.uploadTasks(packed); err != nil {
			return nil, err
		}
		acts, err := e.greedyRollout(rolloutSpec{n: len(part), mode: modeGreedy, givenTasks: true})
		if err != nil {
			return nil, err
		}
		out = append(out, acts...)
	}
	return out, nil
}
