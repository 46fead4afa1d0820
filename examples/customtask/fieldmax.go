package customtask

import (
	"fmt"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// FieldMaxName is the name of "the larger of two hidden digits", a task
// whose policy sees them only as observation fields (task.Fielded): each
// digit a categorical field of 10 values, and both again as numbers in a
// vector of 2. Its context is empty; one token, the larger digit, pays 1.
// Its game has a legal-action mask (task.LegalGame): only the two digits
// shown may be written, so the policy chooses between them.
// It is not registered (this module's command lists guess and maxdigit):
// an engine takes it as a value (cpu.NewWithTask), as its test does;
// task.Register(FieldMaxName, …) in an init would put it on the command line.
const FieldMaxName = "fieldmax"

// FieldMax is the task; its tokens are the digits 0..9 and task.CTX.
type FieldMax struct{}

var (
	fieldMaxLevels = []task.Level{{Name: "max(a,b)", Budget: 1, Shortest: 1}}
	fieldMaxSpec   = task.FieldSpec{Sizes: []int{10, 10}, Vector: 2} // package variables: read without allocating
)

func (FieldMax) Name() string               { return FieldMaxName }
func (FieldMax) Vocab() int                 { return task.CTX + 1 }
func (FieldMax) TokenName(tok int32) string { return fmt.Sprint(tok) }
func (FieldMax) NotActions() []int32        { return []int32{task.CTX} }
func (FieldMax) Answer() int32              { return task.NoAnswer }
func (FieldMax) HoldsOut() bool             { return false }
func (FieldMax) Levels() []task.Level       { return fieldMaxLevels }
func (FieldMax) Fields() task.FieldSpec     { return fieldMaxSpec }
func (FieldMax) NewGame() task.Game         { return &fieldMaxGame{} }

// Draw hides two digits in the instance's data.
func (FieldMax) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, _ task.Split) task.Instance {
	r := key.Block(round, episode, 0, purpose)
	return task.Instance{Level: int32(level), Budget: 1, Data: [task.DataWords]int64{int64(r[0] % 10), int64(r[1] % 10)}}
}

var _ task.LegalGame = (*fieldMaxGame)(nil)

// fieldMaxGame is one episode: the two digits, and whether it was won.
type fieldMaxGame struct {
	a, b int64
	won  bool
}

func (g *fieldMaxGame) Reset(in *task.Instance) int32 {
	g.a, g.b, g.won = in.Data[0], in.Data[1], false
	return task.NoObservation // the fields say it all (WriteFields)
}

func (g *fieldMaxGame) Step(tok int32) (int32, float64, bool) {
	g.won = int64(tok) == max(g.a, g.b)
	if g.won {
		return task.NoObservation, 1, true
	}
	return task.NoObservation, 0, true
}

func (g *fieldMaxGame) Correct() bool { return g.won }

// Legal allows the two digits shown and nothing else (the answer is one of
// them): the engines mask every other token's logit.
func (g *fieldMaxGame) Legal(legal []bool) {
	clear(legal)
	legal[g.a], legal[g.b] = true, true
}

// WriteFields shows the digits: as fields, and as numbers in 0..1.
func (g *fieldMaxGame) WriteFields(fields []int32, vector []float32) {
	fields[0], fields[1] = int32(g.a), int32(g.b)
	vector[0], vector[1] = float32(g.a)/9, float32(g.b)/9
}
