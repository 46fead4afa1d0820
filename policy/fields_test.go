package policy_test

import (
	"io"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// bits is a Fielded task: the context shows nothing useful; two fields
// show two hidden bits (one value each, 0..1) and the vector their sum, and
// a program is correct when its two tokens are the bits.
type bits struct{}

var (
	bitsLevel  = task.Level{Name: "bits", Context: 1, Budget: 2, Shortest: 2}
	bitsLevels = []task.Level{bitsLevel} // a slice of its own: Levels allocates nothing
	bitsSpec   = task.FieldSpec{Sizes: []int{2, 2}, Vector: 1}
)

func (bits) Name() string               { return "bits" }
func (bits) Vocab() int                 { return 3 }
func (bits) ContextEnd() int32          { return 2 }
func (bits) NotActions() []int32        { return []int32{2} }
func (bits) Answer() int32              { return -1 }
func (bits) HoldsOut() bool             { return false }
func (bits) Levels() []task.Level       { return bitsLevels }
func (bits) TokenName(tok int32) string { return string(rune('0' + tok)) }
func (bits) Fields() task.FieldSpec     { return bitsSpec }
func (bits) NewGame() task.Game         { return &bitsGame{} }
func (bits) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, _ task.Split) task.Instance {
	r := key.Block(round, episode, 0, purpose)
	in := task.Instance{Level: int32(lv), NContext: 1, Budget: int32(bitsLevel.Budget)}
	in.Data[0], in.Data[1] = int64(r[0]%2), int64(r[1]%2)
	return in
}

type bitsGame struct {
	b     [2]int32
	steps int
	right int
}

func (g *bitsGame) Reset(in *task.Instance) int32 {
	g.b, g.steps, g.right = [2]int32{int32(in.Data[0]), int32(in.Data[1])}, 0, 0
	return task.NoObservation
}

func (g *bitsGame) Step(tok int32) (int32, float64, bool) {
	if tok == g.b[g.steps] {
		g.right++
	}
	g.steps++
	if g.steps < 2 {
		return task.NoObservation, 0, false
	}
	if g.right == 2 {
		return task.NoObservation, 1, true
	}
	return task.NoObservation, 0, true
}

func (g *bitsGame) Correct() bool { return g.right == 2 }

func (g *bitsGame) WriteFields(fields []int32, vector []float32) {
	fields[0], fields[1], vector[0] = g.b[0], g.b[1], float32(g.b[0]+g.b[1])
}

// bitsPolicy trains the bits task briefly and opens its checkpoint.
func bitsPolicy(t *testing.T) *policy.Policy {
	c := trainer.DefaultRecipe()
	c.Task, c.Threads, c.Hidden, c.Updates, c.Steps, c.TrainLevels = "bits", 2, 16, 40, 2, []int{0}
	c.StopAt, c.Explain = 0, 0
	e, err := cpu.NewWithTask(c, bits{})
	require.NoError(t, err)
	t.Cleanup(e.Close)
	tr, err := trainer.New(c, bits{}, e)
	require.NoError(t, err)
	_, err = trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
	require.NoError(t, err)
	f, err := tr.Checkpoint()
	require.NoError(t, err)
	p, err := policy.NewWithTask(f, bits{})
	require.NoError(t, err)
	return p
}

// TestActFieldsIsPlay: a session fed the fields its game writes plays the
// tokens Play (the engines' batch rollout) plays, for every instance; an
// episode allocates nothing; Act, wrong lengths and a field outside its field are
// refused with an error.
func TestActFieldsIsPlay(t *testing.T) {
	p := bitsPolicy(t)
	ins := make([]task.Instance, 8)
	for i := range ins {
		ins[i] = bits{}.Draw(rng.NewKey(7), 1, uint32(i), rng.PurposeTask, 0, task.Training)
	}
	programs, results := make([]int32, len(ins)*p.Steps()), make([]policy.Result, len(ins))
	require.NoError(t, p.Play(ins, programs, results))

	s := p.NewSession()
	fields, vec := make([]int32, 2), make([]float32, 1)
	g := bits{}.NewGame().(*bitsGame)
	var failed error
	play := func(in *task.Instance, got []int32) {
		if err := s.Start(in, policy.Pick{}); err != nil {
			failed = err
		}
		g.Reset(in)
		for k := range got {
			g.WriteFields(fields, vec)
			a, err := s.ActFields(fields, vec)
			if err != nil {
				failed = err
			}
			got[k] = a
			g.Step(a)
		}
	}
	got := make([]int32, p.Steps())
	for i := range ins {
		play(&ins[i], got)
		require.Equalf(t, programs[i*p.Steps():(i+1)*p.Steps()], got, "instance %d", i)
	}
	require.Zero(t, testing.AllocsPerRun(10, func() { play(&ins[0], got) }))
	require.NoError(t, failed)

	require.NoError(t, s.Start(&ins[0], policy.Pick{}))
	_, err := s.Act(0)
	require.ErrorContains(t, err, "use ActFields")
	_, err = s.ActFields(fields[:1], vec)
	require.ErrorContains(t, err, "1 fields and a vector of 1")
	_, err = s.ActFields([]int32{0, 2}, vec)
	require.ErrorContains(t, err, "field 1 is 2, outside 0..1")
}
