package countdowntask

import (
	"testing"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// observe=fields makes the task Fielded and no Observer; observe=token
// keeps the one observation token, Countdown's default; the 24 Game's
// default is observe=vector; anything else is refused.
func TestObserveOption(t *testing.T) {
	for _, name := range []string{"countdown3", "countdown4", "game24"} {
		for _, spec := range []string{"", "observe=token", "budget=32; observe=token"} {
			tk := opened(t, name, spec)
			vector := spec == "" && name == "game24"
			require.Equal(t, vector, task.IsFielded(tk), "%s %q", name, spec)
			require.Equal(t, vector, task.Observations(tk) == 0, "%s %q", name, spec)
		}
		tk := opened(t, name, "observe=fields; budget=32")
		require.True(t, task.IsFielded(tk))
		require.Zero(t, task.Observations(tk))
		require.NoError(t, task.CheckFieldSpec(tk))
		n := tk.n
		require.Equal(t, append(append([]int{6 * n}, repeat(slotValues, n)...), targetValues), tk.Fields().Sizes)
		require.Equal(t, 4*n+2, tk.Fields().Vector)
		require.Equal(t, 32, tk.Levels()[0].Budget)
		vec := opened(t, name, "observe=vector")
		require.True(t, task.IsFielded(vec))
		require.Zero(t, task.Observations(vec))
		require.Equal(t, task.FieldSpec{Sizes: []int{6 * n}, Vector: 4*n + 2}, vec.Fields())
		if name == "game24" {
			require.Equal(t, vec.Fields(), opened(t, name, "").Fields(), "the 24 Game's default")
		}
	}
	for _, bad := range []string{"observe=on", "observe=", "observe=Fields"} {
		_, err := task.Open("countdown4", bad)
		require.ErrorContains(t, err, "not token, fields or vector", bad)
	}
}

func repeat(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// The fields and vector of a hand-worked episode: [7 2 1] → 3, then
// 7−1 = 6, then 6÷2 = 3.
func TestFieldsByHand(t *testing.T) {
	tk := opened(t, "countdown3", "observe=fields")
	in := instance([]int64{7, 2, 1}, 3, 64)
	g := tk.NewGame().(*Game)
	fields, vector := make([]int32, 5), make([]float32, 14)
	write := func() ([]int32, []float32) {
		g.WriteFields(fields, vector)
		return append([]int32(nil), fields...), append([]float32(nil), vector...)
	}
	g.Reset(&in)
	f, v := write()
	// start · 3 left is observation 0·3+2; slot k's value v is 1+v; the target 3.
	require.Equal(t, []int32{2, 8, 3, 2, 3}, f)
	require.Equal(t, []float32{1, 7.0 / 3, 1, 0, 1, 2.0 / 3, -1, 0, 1, 1.0 / 3, -1, 0, 1, 0}, v)

	step := func(name string) {
		for tok := range int32(tk.Vocab()) {
			if tk.TokenName(tok) == name {
				g.Step(tok)
				return
			}
		}
		t.Fatalf("no token %s", name)
	}
	step("s0-s2") // [6 2 _]: above · 2 left is 5·3+1
	f, v = write()
	require.Equal(t, []int32{16, 7, 3, 0, 3}, f)
	require.Equal(t, []float32{1, 2, 1, 0, 1, 2.0 / 3, -1, 0, 0, 0, 0, 0, 2.0 / 3, 1.0 / 64}, v)
	step("s0/s1") // [3 _ _]
	f, v = write()
	require.Equal(t, []int32{4*3 + 0, 4, 0, 0, 3}, f) // equal · 1 left; slot 0 holds 3
	require.Equal(t, []float32{1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1.0 / 3, 2.0 / 64}, v)
	require.True(t, g.Correct())

	// observe=vector: the same vector, and the first field alone.
	tk = opened(t, "countdown3", "observe=vector")
	g = tk.NewGame().(*Game)
	fields = make([]int32, 1)
	g.Reset(&in)
	step("s0-s2")
	f, v = write()
	require.Equal(t, []int32{16}, f)
	require.Equal(t, []float32{1, 2, 1, 0, 1, 2.0 / 3, -1, 0, 0, 0, 0, 0, 2.0 / 3, 1.0 / 64}, v)
}

// The slot field's buckets: exact integers 0..100, then above, negative,
// fraction.
func TestSlotValue(t *testing.T) {
	for _, c := range []struct {
		v    countdown.Value
		want int32
	}{{countdown.Int(0), 1}, {countdown.Int(24), 25}, {countdown.Int(100), 101}, {countdown.Int(101), slotAbove},
		{countdown.Int(9801), slotAbove}, {countdown.Int(-2), slotNegative}, {countdown.Value{N: 1, D: 3}, slotFraction},
		{countdown.Value{N: -7, D: 2}, slotFraction}} {
		require.Equal(t, c.want, slotValue(c.v), c.v.String())
		require.Less(t, slotValue(c.v), int32(slotValues))
	}
}

// On random walks of every task with fields: every field in its range and
// the vector finite (task.CheckFields), the mask exactly what the game
// accepts, as without fields, and the step fraction counting every token.
func TestFieldsOnRandomWalks(t *testing.T) {
	key := rng.NewKey(23)
	for _, c := range []struct{ name, spec string }{{"countdown3", "observe=fields"}, {"countdown4", "observe=fields"},
		{"game24", "observe=fields"}, {"game24", "observe=vector"}} {
		name := c.name
		tk := opened(t, name, c.spec)
		spec := tk.Fields()
		g := tk.NewGame().(*Game)
		legal := make([]bool, tk.Vocab())
		fields, vector := make([]int32, len(spec.Sizes)), make([]float32, spec.Vector)
		for e := uint32(0); e < 100; e++ {
			in := tk.Draw(key, 0, e, rng.PurposeTask, 0, task.Training)
			g.Reset(&in)
			for k := uint32(0); k < 40; k++ {
				g.WriteFields(fields, vector)
				require.NoError(t, task.CheckFields(spec.Sizes, fields, vector))
				require.Equal(t, float32(k)/float32(in.Budget), vector[len(vector)-1])
				require.Equal(t, float32(g.Pool().Left())/float32(tk.n), vector[len(vector)-2])
				for i := range tk.n {
					_, live := g.Pool().Value(i)
					require.Equal(t, live, vector[4*i] == 1)
					if len(fields) > 1 {
						require.Equal(t, live, fields[1+i] != 0)
					}
				}
				g.Legal(legal)
				for tok, ok := range legal {
					require.Equal(t, ok, accepts(g.Pool(), int32(tok)), "%s: token %s at %s", name, tk.TokenName(int32(tok)), g.Pool())
				}
				tok := int32(rng.Below(key.Block(1, e, k, rng.PurposeAction)[0], uint32(tk.Vocab())))
				if _, _, done := g.Step(tok); done {
					break
				}
			}
		}
	}
}

// Writing the fields allocates nothing (the hot loop).
func TestFieldsNoAllocations(t *testing.T) {
	tk := opened(t, "game24", "observe=fields")
	g := tk.NewGame().(*Game)
	in := tk.Draw(rng.NewKey(4), 0, 0, rng.PurposeTask, 0, task.Training)
	fields, vector := make([]int32, len(tk.Fields().Sizes)), make([]float32, tk.Fields().Vector)
	g.Reset(&in)
	allocs := testing.AllocsPerRun(50, func() {
		g.Step(0)
		g.WriteFields(fields, vector)
		g.Step(countdown.Undo(4))
		g.WriteFields(fields, vector)
	})
	require.Zero(t, allocs)
}
