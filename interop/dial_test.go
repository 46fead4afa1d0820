package interop_test

import (
	"fmt"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// dial is a small task with observation fields and a vector (task.Fielded),
// registered for the interop tests alone: a pointer starts at the context's
// first digit and must reach a target; each token 0..4 moves it by −2..+2.
// The policy sees three fields (the pointer mod 5, the target's side, the
// steps played) and a vector of two numbers (the distance to the target and
// the pointer, scaled): what it needs is in its inputs, not its context.
type dial struct{}

const (
	dialName   = "interop-dial"
	dialBudget = 8
	dialEnd    = 5 // the context end, never an action
)

var (
	dialLevels = []task.Level{{Name: "dial", Context: 2, Budget: dialBudget, Shortest: 1}}
	dialSpec   = task.FieldSpec{Sizes: []int{5, 3, dialBudget}, Vector: 2}
)

func init() {
	task.Register(dialName, func(spec string) (task.Task, error) {
		if spec != "" {
			return nil, fmt.Errorf("%s takes no options", dialName)
		}
		return dial{}, nil
	})
}

func (dial) Name() string               { return dialName }
func (dial) Vocab() int                 { return dialEnd + 1 }
func (dial) ContextEnd() int32          { return dialEnd }
func (dial) NotActions() []int32        { return []int32{dialEnd} }
func (dial) Answer() int32              { return task.NoAnswer }
func (dial) HoldsOut() bool             { return false }
func (dial) Levels() []task.Level       { return dialLevels }
func (dial) Fields() task.FieldSpec     { return dialSpec }
func (dial) NewGame() task.Game         { return &dialGame{} }
func (dial) TokenName(tok int32) string { return [...]string{"-2", "-1", "+0", "+1", "+2", "END"}[tok] }

// Draw: the context shows the start and a digit of no use; the target is
// 1..4 away on either side.
func (dial) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, _ task.Split) task.Instance {
	r := key.Block(round, episode, 0, purpose)
	in := task.Instance{Level: int32(lv), NContext: 2, Budget: dialBudget}
	in.Context[0], in.Context[1] = int32(r[0]%5), int32(r[1]%5)
	off := int64(r[2]%4) + 1
	if r[3]%2 == 0 {
		off = -off
	}
	in.Data[0], in.Data[1] = int64(in.Context[0]), int64(in.Context[0])+off
	return in
}

type dialGame struct{ pos, target, steps int64 }

func (g *dialGame) Reset(in *task.Instance) int32 {
	g.pos, g.target, g.steps = in.Data[0], in.Data[1], 0
	return task.NoObservation
}

func (g *dialGame) Step(tok int32) (int32, float64, bool) {
	g.pos += int64(tok) - 2
	g.steps++
	if g.pos == g.target {
		return task.NoObservation, 1, true
	}
	return task.NoObservation, 0, g.steps == dialBudget
}

func (g *dialGame) Correct() bool { return g.pos == g.target }

func (g *dialGame) WriteFields(fields []int32, vector []float32) {
	side := int32(1) // 0 below the target, 1 on it, 2 above
	if g.pos < g.target {
		side = 0
	} else if g.pos > g.target {
		side = 2
	}
	fields[0], fields[1], fields[2] = int32((g.pos%5+5)%5), side, int32(min(g.steps, dialBudget-1))
	vector[0], vector[1] = float32(g.target-g.pos)/4, float32(g.pos)/4
}
