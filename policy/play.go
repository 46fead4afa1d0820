package policy

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// Result is one whole episode, played greedily by Play.
type Result struct {
	Steps   int     // the tokens played up to the episode's end (its answer, or the rollout's last)
	Reward  float64 // its return: what the task paid, summed over its steps
	Correct bool    // the task's verdict (solve rates count these)
}

// player is one goroutine's share of Play: a chunk's workspace, the task's
// Env of as many rows and its per-step results, as the CPU engine's worker.
type player struct {
	ws     *gru.Workspace
	env    task.Env
	check  task.Checker
	ctx    [gru.MaxContext]int32
	draws  []task.Instance // Evaluate's instances of a chunk
	first  []int32
	obs    []int32
	reward []float64 // T×chunk, step-major
	done   []bool
	fields *enginekit.FieldInputs // a Fielded task's fields (nil: none)
	masker task.Masker            // the Env's legal-action mask (mask.go); nil: none
	task   task.Task
}

// chunk is the episodes a player plays at once: the configuration's chunk
// (-chunk), as the CPU engine's workers.
func (p *Policy) chunk() int { return max(1, min(p.cfg.Chunk, p.cfg.Batch)) }

func (p *Policy) newPlayer() *player {
	C, T := p.chunk(), p.cfg.Steps
	ws, err := gru.NewWorkspace(p.layout, C, T)
	if err != nil { // the configuration was validated: chunk and steps ≥ 1
		panic(err)
	}
	env := task.NewEnv(p.task, C)
	fields, err := enginekit.NewFieldInputs(p.task, p.layout, env)
	if err != nil { // build made one already: an Env of the same task
		panic(err)
	}
	pl := &player{ws: ws, env: env, check: task.NewChecker(p.task), draws: make([]task.Instance, C), first: make([]int32, C),
		obs: make([]int32, C*T), reward: make([]float64, C*T), done: make([]bool, C*T), fields: fields}
	pl.useMask(p.task)
	return pl
}

func (p *Policy) player() *player {
	if pl, ok := p.players.Get().(*player); ok {
		return pl
	}
	return p.newPlayer()
}

// Play plays each of ins greedily with the task's own Env and writes its
// result into results[i] and, when programs is not nil, its tokens into
// programs[i·Steps:(i+1)·Steps] (Policy.Steps each; 0 after its end).
// Chunks of the configuration's -chunk episodes are spread over up to
// GOMAXPROCS goroutines; every episode's play is the same whatever its chunk,
// so the results are those of the engines' GreedyPrograms and evaluations. An
// instance that is not the task's, or a task that breaks its contract or
// panics, is an error (the results are then partial).
func (p *Policy) Play(ins []task.Instance, programs []int32, results []Result) (err error) {
	defer func() { // task.Check runs the task's code too
		if v := recover(); v != nil {
			err = p.check.Panic(v)
		}
	}()
	T := p.cfg.Steps
	switch {
	case len(results) != len(ins):
		return fmt.Errorf("policy: Play got %d results for %d instances", len(results), len(ins))
	case programs != nil && len(programs) != len(ins)*T:
		return fmt.Errorf("policy: Play got %d program tokens for %d instances of %d steps", len(programs), len(ins), T)
	}
	for i := range ins {
		if err := task.Check(p.task, &ins[i]); err != nil {
			return fmt.Errorf("instance %d: %w", i, err)
		}
	}
	return p.chunks(len(ins), func(pl *player, first, n int) error {
		pl.play(p, ins[first:first+n])
		for b := range n {
			results[first+b] = pl.result(p, b, n)
			if programs != nil {
				pl.program(b, programs[(first+b)*T:(first+b+1)*T])
			}
		}
		return nil
	})
}

// chunks runs work on every chunk of n episodes, on up to GOMAXPROCS
// goroutines, each with a player of its own, and returns the first error in
// chunk order. A panic in the task's code is that chunk's error (making a
// player's Env runs it too: the players are made here, under recover).
func (p *Policy) chunks(n int, work func(pl *player, first, n int) error) (err error) {
	C := p.chunk()
	count := (n + C - 1) / C
	players := make([]*player, min(runtime.GOMAXPROCS(0), count))
	defer func() {
		if v := recover(); v != nil {
			err = p.check.Panic(v)
		}
		for _, pl := range players {
			if pl != nil {
				p.players.Put(pl)
			}
		}
	}()
	for i := range players {
		players[i] = p.player()
	}
	errs := make([]error, count)
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, pl := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= count {
					return
				}
				first := i * C
				errs[i] = pl.guard(func() error { return work(pl, first, min(C, n-first)) })
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// guard runs f, returning a panic in the task's code (or a contract
// violation) as its error.
func (pl *player) guard(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = pl.check.Panic(v)
		}
	}()
	return f()
}

// play plays ins (at most a chunk) greedily, as the CPU engine's
// playGreedily with stop: each episode retired at its end.
func (pl *player) play(p *Policy, ins []task.Instance) {
	ws, l, n, T := pl.ws, p.layout, len(ins), p.cfg.Steps
	ws.Reset(n)
	for b := range ins {
		k := ins[b].WriteContext(pl.ctx[:], p.end)
		ws.SetContext(b, task.Stage(p.task, int(ins[b].Level)), pl.ctx[:k])
		pl.first[b] = pl.env.Reset(b, &ins[b])
	}
	ws.Start(p.params)
	if pl.fields != nil {
		pl.fields.Write(ws, l, 0, nil)
	} else if l.Observations > 0 {
		in := ws.Inputs(0)
		for b := range in {
			in[b] = l.Input(l.Start, pl.observation(pl.first[b]))
		}
	}
	for t := range T {
		pl.maskNext(n) // mask.go
		ws.Step(p.params, p.derived, t, gru.Greedy, gru.Stream{})
		acts := ws.StepActions(t)
		out := task.Transition{Obs: pl.obs[t*n : (t+1)*n], Reward: pl.reward[t*n : (t+1)*n], Done: pl.done[t*n : (t+1)*n]}
		pl.env.Step(acts, out)
		ws.Retire(t, out.Done)
		if t+1 == T {
			break
		}
		if pl.fields != nil {
			pl.fields.Write(ws, l, t+1, acts)
			continue
		}
		in := ws.Inputs(t + 1)
		for b, a := range acts {
			in[b] = l.Input(a, 0)
			if l.Observations > 0 {
				in[b] = l.Input(a, pl.observation(out.Obs[b]))
			}
		}
	}
}

// observation checks that the task's Env returned one of its observation
// tokens (the model would read outside its input table otherwise).
func (pl *player) observation(o int32) int32 {
	if err := pl.check.Observation(o); err != nil {
		panic(&task.ViolationError{Err: err})
	}
	return o
}

// result is episode b's of the chunk of n just played.
func (pl *player) result(p *Policy, b, n int) Result {
	T := p.cfg.Steps
	r := Result{Steps: T, Correct: pl.env.Correct(b)}
	for t := range T {
		r.Reward += pl.reward[t*n+b]
	}
	for t := range T {
		if pl.done[t*n+b] {
			r.Steps = t + 1
			break
		}
	}
	return r
}

// program copies episode b's tokens into dst.
func (pl *player) program(b int, dst []int32) {
	for t := range dst {
		dst[t] = pl.ws.Action(b, t)
	}
}

// Evaluation says what Evaluate plays: the final evaluation of a run with
// these settings. FinalEvaluation is the checkpoint's own run's.
type Evaluation struct {
	Episodes int        // per level (-final-episodes)
	Split    task.Split // task.HeldOut for the final evaluation's main figures
	Seed     uint64     // the run's -seed: which instances are drawn
	// Chunk is the engine's episodes per chunk (-chunk, at most -batch):
	// the engines sum each chunk's rewards, then the chunks' sums, so the
	// mean reward's last bits depend on it (the solve rate does not).
	Chunk int
}

// FinalEvaluation is the final evaluation of the checkpoint's run: its
// -final-episodes held-out episodes per level, its -seed and -chunk. A
// command that loads the checkpoint (-load FILE -eval-only) evaluates with
// its own flags instead: give Evaluate those to get its figures.
func (p *Policy) FinalEvaluation() Evaluation {
	return Evaluation{Episodes: p.cfg.FinalEpisodes, Split: task.HeldOut, Seed: p.cfg.Seed, Chunk: p.chunk()}
}

// Evaluate plays e.Episodes greedy episodes of level, drawn as a final
// evaluation with e's settings draws them (e.Seed, the final round,
// e.Split), and returns their mean reward and solve rate bit for bit as
// the engines compute them: what `simdrl -load FILE -eval-only -seed S
// -chunk C -final-episodes N` reports for the level. A level with no items
// in the split plays nothing (Episodes 0).
func (p *Policy) Evaluate(level int, e Evaluation) (trainer.EvalResult, error) {
	res := trainer.EvalResult{Level: level, Episodes: e.Episodes}
	levels := len(p.task.Levels())
	switch {
	case level < 0 || level >= levels:
		return res, fmt.Errorf("policy: level %d: the %s task has levels 0..%d", level, p.task.Name(), levels-1)
	case e.Episodes < 0 || e.Chunk < 1:
		return res, fmt.Errorf("policy: an evaluation of %d episodes in chunks of %d (at least 0 and 1)", e.Episodes, e.Chunk)
	}
	if task.Items(p.task, level, e.Split) == 0 {
		res.Episodes = 0
	}
	if res.Episodes == 0 {
		return res, nil
	}
	key := rng.NewKey(e.Seed)
	rewards := make([]float64, e.Episodes)
	solved := make([]bool, e.Episodes)
	err := p.chunks(e.Episodes, func(pl *player, first, n int) error {
		draws := pl.draws[:n]
		for b := range draws {
			draws[b] = p.task.Draw(key, enginekit.FinalRound, uint32(first+b), enginekit.EvalPurpose(level), level, e.Split)
			if err := pl.check.Drawn(&draws[b], level); err != nil {
				return err
			}
		}
		pl.play(p, draws)
		for b := range n {
			r := pl.result(p, b, n)
			if err := pl.check.Reward(r.Reward, int32(level)); err != nil {
				return err
			}
			rewards[first+b], solved[first+b] = r.Reward, r.Correct
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	// Every episode's play is the same in any chunk; only the sum's order
	// follows the engine's chunks.
	sum, count := 0.0, 0
	for first := 0; first < e.Episodes; first += e.Chunk {
		part := 0.0
		for _, r := range rewards[first:min(first+e.Chunk, e.Episodes)] {
			part += r
		}
		sum += part
	}
	for _, s := range solved {
		if s {
			count++
		}
	}
	res.MeanReward = sum / float64(e.Episodes)
	res.SolveRate = float64(count) / float64(e.Episodes)
	return res, nil
}
