package countdowntask

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// recorded hashes random walks of tk's games: every step's token,
// observation, reward, end and the mask before it.
func recorded(tk *poolTask) uint64 {
	h := fnv.New64a()
	put := func(v uint64) { _ = binary.Write(h, binary.LittleEndian, v) }
	key := rng.NewKey(53)
	g := tk.NewGame().(*Game)
	legal := make([]bool, tk.Vocab())
	put(uint64(tk.Vocab()))
	put(uint64(tk.Observations()))
	for e := uint32(0); e < 50; e++ {
		in := tk.Draw(key, 0, e, rng.PurposeTask, 0, task.Split(e%2))
		put(uint64(g.Reset(&in)))
		for k := uint32(0); k < 60; k++ {
			g.Legal(legal)
			for _, ok := range legal {
				if ok {
					put(1)
				} else {
					put(0)
				}
			}
			tok := int32(rng.Below(key.Block(1, e, k, rng.PurposeAction)[0], uint32(tk.Vocab())))
			obs, reward, done := g.Step(tok)
			put(uint64(tok))
			put(uint64(obs))
			put(math.Float64bits(reward))
			if done {
				put(1)
				break
			}
		}
	}
	return h.Sum64()
}

// walksBeforeThink are recorded's hashes of the tasks' games without the
// no-revisit rule (the default then), recorded at 220a1ff, before think.go.
var walksBeforeThink = map[string]uint64{
	"countdown3": 0xf38c30504426b437,
	"countdown4": 0xb202c66c3566c1c6,
	"game24":     0xd1ee686ab42ee0eb,
}

// think=0, the default, is the task as it was before THINK: the same
// vocabulary, observations, masks and rewards on recorded random walks (the
// hashes were recorded at 220a1ff, before think.go, when revisit=on was the
// game and the token every task's observation).
func TestThinkOffIsToday(t *testing.T) {
	for name, want := range walksBeforeThink {
		for _, spec := range []string{"revisit=on; observe=token", "revisit=on; think=0; observe=token", "think=0; think-cost=0; revisit=on; observe=token"} {
			tk := opened(t, name, spec)
			require.Equal(t, countdown.Moves(tk.n)+1, tk.Vocab(), name)
			require.Equal(t, len(observationKinds)*tk.n, tk.Observations(), name)
			require.Equal(t, want, recorded(tk), "%s %q", name, spec)
		}
	}
}

// With think=N, THINK is the token after the context end: legal while
// fewer than N have been played, it leaves the pool, costs its step and
// think-cost, and is observed as "thought"; the (N+1)th is masked and,
// played anyway, refused.
func TestThink(t *testing.T) {
	tk := opened(t, "countdown3", "think=2; think-cost=0.25")
	think := int32(tk.Vocab() - 1)
	require.Equal(t, countdown.Moves(3)+2, tk.Vocab())
	require.Equal(t, "THINK", tk.TokenName(think))
	require.Equal(t, "END", tk.TokenName(think-1))
	require.Equal(t, []int32{think - 1}, tk.NotActions(), "THINK is an action")
	require.Equal(t, 7*3, tk.Observations())

	in := instance([]int64{7, 2, 1}, 3, 64)
	g := tk.NewGame().(*Game)
	legal := make([]bool, tk.Vocab())
	g.Reset(&in)
	pool := g.Pool().String()
	g.Legal(legal)
	require.True(t, legal[think])
	require.False(t, legal[think-1])
	obs, reward, done := g.Step(think)
	require.Equal(t, []any{"thought · 3 left", -0.25, false}, []any{tk.ObservationName(obs), reward, done})
	require.Equal(t, pool, g.Pool().String(), "THINK leaves the pool")
	require.Equal(t, 1, g.steps, "THINK costs a step")

	g.Step(countdown.Token(3, countdown.Move{I: 0, J: 2, Op: countdown.Sub})) // 7−1 = 6
	g.Legal(legal)
	require.True(t, legal[think], "one think left")
	obs, reward, _ = g.Step(think)
	require.Equal(t, "thought · 2 left", tk.ObservationName(obs))
	require.Equal(t, -0.25, reward)
	g.Legal(legal)
	require.False(t, legal[think], "the thinks are spent")
	require.Contains(t, legal, true)
	pool = g.Pool().String()
	obs, reward, done = g.Step(think)
	require.Equal(t, []any{"refused · 2 left", 0.0, false}, []any{tk.ObservationName(obs), reward, done})
	require.Equal(t, pool, g.Pool().String())
	require.Equal(t, 4, g.steps)

	// A new episode has its thinks again.
	g.Reset(&in)
	g.Legal(legal)
	require.True(t, legal[think])

	// The budget counts THINKs: the two moves that solve [7 2 1] → 3 solve
	// it in 2 steps, not behind a THINK; the explanation prints it.
	solve := []int32{countdown.Token(3, countdown.Move{I: 0, J: 2, Op: countdown.Sub}), countdown.Token(3, countdown.Move{I: 0, J: 1, Op: countdown.Div})}
	in.Budget = 2
	require.True(t, task.Score(tk, &in, solve).Correct)
	thought := append([]int32{think}, solve...)
	require.False(t, task.Score(tk, &in, thought).Correct)
	in.Budget = 3
	ex := task.Explain(tk, &in, thought)
	require.True(t, ex.Correct)
	require.Equal(t, 1-0.25, ex.Reward)
	require.Equal(t, task.Step{Token: "THINK", State: "[7 2 1] → 3 · obs thought · 3 left"}, ex.Trace[0])
}

// With observe=fields, the first field holds the "thought" observation.
func TestThinkFields(t *testing.T) {
	tk := opened(t, "countdown4", "observe=fields; think=1")
	require.Equal(t, 7*4, tk.Fields().Sizes[0])
	in := instance([]int64{1, 2, 3, 4}, 24, 128)
	g := tk.NewGame().(*Game)
	g.Reset(&in)
	g.Step(int32(tk.Vocab() - 1))
	fields, vector := make([]int32, len(tk.Fields().Sizes)), make([]float32, tk.Fields().Vector)
	g.WriteFields(fields, vector)
	require.Equal(t, "thought · 4 left", tk.ObservationName(fields[0]))
	require.Less(t, int(fields[0]), tk.Fields().Sizes[0])
	require.Equal(t, float32(1)/128, vector[len(vector)-1], "the steps played count the THINK")
}

// The options round-trip through their spec; bad ones are one line.
func TestThinkSpec(t *testing.T) {
	for _, th := range []thinking{{}, {most: 8}, {most: 3, cost: 0.01}, {cost: 0.5}} {
		require.Equal(t, th, opened(t, "game24", th.String()).think, th.String())
	}
	require.Equal(t, "think=8;think-cost=0.01", thinking{8, 0.01}.String())
	for _, bad := range []string{"think=-1", "think=x", "think=257", "think=", "think-cost=-0.1", "think-cost=NaN", "think-cost=2", "think-cost=x"} {
		_, err := task.Open("countdown4", bad)
		require.Error(t, err, bad)
		var se *task.SpecError
		require.ErrorAs(t, err, &se, bad)
		require.NotContains(t, err.Error(), "\n")
	}
}
