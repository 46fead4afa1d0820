package countdowntask

import (
	"fmt"
	"slices"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// Baseline is what the policy-free players solve of a task's held-out
// instances (Instances(0, HeldOut, 0): the policy's evaluation set) in one
// step budget (issue 53): random legal moves, the blind fixed-order DFS
// with UNDO, random well-formed programs at pass@1 and pass@16 (each
// program n−1 steps, so 16 fit every budget here), and brute force (the DFS
// without a budget: it solves every instance, by construction; its steps
// say what budget a blind search needs). Under the task's revisit=off
// the DFS (brute force included) and the random legal moves play by the
// no-revisit rule as the policy does; a random program, never undoing, has
// no state to revisit.
type Baseline struct {
	Task      string
	Budget    int
	Instances int
	Random    float64 // random legal moves (UNDO among them)
	DFS       float64
	Pass1     float64 // mean over ProgramsPerInstance programs
	Pass16    float64 // any of ProgramsPerInstance programs
	BruteMed  int     // the DFS's steps to the first solution: median
	BruteMax  int     // and most
}

// ProgramsPerInstance is how many random programs each instance gets.
const ProgramsPerInstance = 16

// Baselines measures the held-out instances of task name (with spec's
// options) in each budget, its random players drawn from seed's
// counter-based stream.
func Baselines(name, spec string, budgets []int, seed uint64) ([]Baseline, error) {
	tk, err := task.Open(name, spec)
	if err != nil {
		return nil, err
	}
	t, ok := poolOf(tk)
	if !ok {
		return nil, fmt.Errorf("%s is not a pool task", name)
	}
	ins := t.Instances(0, task.HeldOut, 0)
	key := rng.NewKey(seed)
	chooser := func(round, episode uint32) countdown.Chooser {
		return func(k uint32, n int) int {
			return int(rng.Below(key.Block(round, episode, k, rng.PurposeAction)[0], uint32(n)))
		}
	}
	var p countdown.Pool
	var brute []int
	var pass1, pass16 float64
	for i := range ins {
		t.searchPool(&ins[i], &p, bruteMoves)
		ok, steps := countdown.DFS(&p, 1<<30)
		if !ok {
			return nil, fmt.Errorf("%s: a held-out instance the brute force cannot solve: %s", name, p.String())
		}
		brute = append(brute, steps)
		t.Pool(&ins[i], &p)
		won := 0
		for k := range uint32(ProgramsPerInstance) {
			if countdown.RandomProgram(&p, chooser(1+k, uint32(i))) {
				won++
			}
		}
		pass1 += float64(won) / ProgramsPerInstance
		if won > 0 {
			pass16++
		}
	}
	slices.Sort(brute)
	var out []Baseline
	for _, b := range budgets {
		row := Baseline{Task: name, Budget: b, Instances: len(ins), Pass1: pass1 / float64(len(ins)), Pass16: pass16 / float64(len(ins)),
			BruteMed: brute[len(brute)/2], BruteMax: brute[len(brute)-1]}
		for i := range ins {
			t.searchPool(&ins[i], &p, b)
			if ok, _ := countdown.DFS(&p, b); ok {
				row.DFS++
			}
			t.searchPool(&ins[i], &p, b)
			if countdown.RandomLegal(&p, b, chooser(0, uint32(i))) {
				row.Random++
			}
		}
		row.DFS /= float64(len(ins))
		row.Random /= float64(len(ins))
		out = append(out, row)
	}
	return out, nil
}

// bruteMoves is the room the brute force's no-revisit set starts with (it
// grows as needed).
const bruteMoves = 4096

// searchPool resets p on in for a search of budget steps: under the
// task's no-revisit rule when it has it.
func (t *poolTask) searchPool(in *task.Instance, p *countdown.Pool, budget int) {
	t.Pool(in, p)
	if t.noRevisit {
		p.ForbidRevisits(budget)
	}
}
