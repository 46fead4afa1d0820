package trainer

import (
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
)

// call is one EvaluateAll call a fakeEngine saw.
type call struct {
	episodes int
	round    uint32
	split    task.Split
}

// fakeEngine trains nothing: its evaluations report the solve rates its
// rate function gives, rounded to whole episodes, so the loop's decisions
// can be tested without a model.
type fakeEngine struct {
	steps        int // the config's rollout length
	params, m, v []float32
	adamStep     int
	rate         func(c call, level int) float64
	calls        []call

	// What each update's plan said: its number, level (−1: mixed) and the
	// levels played.
	updates    []int
	planLevels []int
	played     [][]int
	entropies  []float64
	// afterUpdate, if set, runs after update u is applied (an interrupt
	// arriving between updates); evalErr, if set, may fail an evaluation
	// before it plays (an interrupt inside one).
	afterUpdate func(u int)
	evalErr     func(c call) error
	levels      int
}

// newFakeRun is a Trainer of cfg driving a fakeEngine.
func newFakeRun(cfg Config, rate func(c call, level int) float64) (*Trainer, *fakeEngine) {
	t, err := cfg.OpenTask()
	if err != nil {
		panic(err)
	}
	l, err := enginekit.NewLayout(cfg.Hidden, t)
	if err != nil {
		panic(err)
	}
	e := &fakeEngine{steps: cfg.Steps, params: make([]float32, l.Size), m: make([]float32, l.Size), v: make([]float32, l.Size),
		rate: rate, levels: len(t.Levels())}
	tr, err := New(cfg, t, e)
	if err != nil {
		panic(err)
	}
	return tr, e
}

func (f *fakeEngine) Backend() string  { return "fake" }
func (f *fakeEngine) Describe() string { return "" }

func (f *fakeEngine) Update(p Plan) (UpdateStats, error) {
	st := UpdateStats{Update: p.Update, Level: p.Level}
	f.updates = append(f.updates, p.Update)
	f.planLevels = append(f.planLevels, p.Level)
	f.played = append(f.played, append([]int(nil), p.Played...))
	f.entropies = append(f.entropies, p.Entropy)
	f.adamStep++
	if f.afterUpdate != nil {
		f.afterUpdate(p.Update)
	}
	return st, nil
}

func (f *fakeEngine) EvaluateAll(episodes int, round uint32, split task.Split) ([]EvalResult, error) {
	c := call{episodes, round, split}
	if f.evalErr != nil {
		if err := f.evalErr(c); err != nil {
			return nil, err
		}
	}
	f.calls = append(f.calls, c)
	out := make([]EvalResult, f.levels)
	for s := range out {
		rate := f.rate(c, s) // once: a test's rate may count its calls
		if rate < 0 {        // a level the split has no instance of
			out[s] = EvalResult{Level: s}
			continue
		}
		solved := int(rate*float64(episodes) + 0.5)
		out[s] = EvalResult{Level: s, Episodes: episodes, SolveRate: float64(solved) / float64(episodes), MeanReward: 1}
	}
	return out, nil
}

func (f *fakeEngine) GreedyPrograms(ins []task.Instance) ([]int32, error) {
	return make([]int32, len(ins)*f.steps), nil
}
func (f *fakeEngine) Params() ([]float32, error)  { return f.params, nil }
func (f *fakeEngine) SetParams(p []float32) error { copy(f.params, p); return nil }
func (f *fakeEngine) Moments() (m, v []float32, step int, err error) {
	return f.m, f.v, f.adamStep, nil
}
func (f *fakeEngine) SetMoments(m, v []float32, step int) error {
	copy(f.m, m)
	copy(f.v, v)
	f.adamStep = step
	return nil
}
func (f *fakeEngine) SetInterrupt(<-chan struct{}) {}
func (f *fakeEngine) Close()                       {}
