package trainer

import (
	"github.com/simdrl/simdrl/checkpoint"
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
	cfg     Config
	t       task.Task
	cur     *Curriculum
	updates int
	rate    func(c call, level int) float64
	calls   []call

	// What each update saw: its stage (−1: mixed) and the stages played.
	stages []int
	played [][]int
	// afterUpdate, if set, runs after update u is applied (an interrupt
	// arriving between updates); evalErr, if set, may fail an evaluation
	// before it plays (an interrupt inside one).
	afterUpdate func(u int)
	evalErr     func(c call) error
}

func newFakeEngine(cfg Config, rate func(c call, level int) float64) *fakeEngine {
	t, err := cfg.OpenTask()
	if err != nil {
		panic(err)
	}
	return &fakeEngine{cfg: cfg, t: t, cur: NewCurriculum(cfg, len(t.Levels())), rate: rate}
}

func (f *fakeEngine) Config() Config          { return f.cfg }
func (f *fakeEngine) Task() task.Task         { return f.t }
func (f *fakeEngine) Backend() string         { return "fake" }
func (f *fakeEngine) Describe() string        { return "" }
func (f *fakeEngine) Curriculum() *Curriculum { return f.cur }
func (f *fakeEngine) Updates() int            { return f.updates }

func (f *fakeEngine) Update() (UpdateStats, error) {
	f.updates++
	st := UpdateStats{Update: f.updates, Stage: f.cur.StageOf(f.updates)}
	f.stages = append(f.stages, st.Stage)
	f.played = append(f.played, append([]int(nil), f.cur.Played()...))
	if f.afterUpdate != nil {
		f.afterUpdate(f.updates)
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
	out := make([]EvalResult, len(f.t.Levels()))
	for s := range out {
		solved := int(f.rate(c, s)*float64(episodes) + 0.5)
		out[s] = EvalResult{Stage: s, Episodes: episodes, SolveRate: float64(solved) / float64(episodes), MeanReward: 1}
	}
	return out, nil
}

func (f *fakeEngine) GreedyPrograms(ins []task.Instance) ([]int32, error) {
	return make([]int32, len(ins)*f.cfg.Steps), nil
}
func (f *fakeEngine) ParamSHA256() (string, error)          { return "fake", nil }
func (f *fakeEngine) Checkpoint() (*checkpoint.File, error) { return nil, nil }
func (f *fakeEngine) Restore(*checkpoint.File) error        { return nil }
func (f *fakeEngine) LoadWeights(*checkpoint.File) error    { return nil }
func (f *fakeEngine) Close()                                {}
func (e *fakeEngine) SetInterrupt(<-chan struct{})          {}
