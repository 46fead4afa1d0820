package cpu

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// guess hides a digit h in 0..3; a program of one token is correct when it
// names h. On an instance that shows an even token the mask leaves h alone
// legal (every sample is correct); on an odd one all four guesses are legal.
// A policy whose logits are all 0 (its parameters zeroed) is uniform over
// the legal tokens, so its pass@k is known exactly: 1 on the even
// instances, 1 − (3/4)^k on the odd ones.
type guess struct{}

const guessEnd = 4

func (guess) Name() string               { return "guess" }
func (guess) Vocab() int                 { return 5 }
func (guess) ContextEnd() int32          { return guessEnd }
func (guess) NotActions() []int32        { return []int32{guessEnd} }
func (guess) Answer() int32              { return task.NoAnswer }
func (guess) HoldsOut() bool             { return false }
func (guess) TokenName(tok int32) string { return fmt.Sprint(tok) }
func (guess) Levels() []task.Level {
	return []task.Level{{Name: "guess", Context: 1, Budget: 1, Shortest: 1}}
}
func (guess) SubsetNames() []string { return []string{"even", "odd"} }
func (guess) Subsets(in *task.Instance) uint32 {
	if in.Context[0]%2 == 0 {
		return 1
	}
	return 2
}
func (guess) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, _ task.Split) task.Instance {
	r := key.Block(round, episode, 0, purpose)
	in := task.Instance{Level: int32(lv), NContext: 1, Budget: 1}
	in.Context[0], in.Data[0] = int32(r[0]%4), int64(r[1]%4)
	return in
}
func (guess) NewGame() task.Game { return &guessGame{} }

type guessGame struct {
	in  task.Instance
	won bool
}

func (g *guessGame) Reset(in *task.Instance) int32 {
	g.in, g.won = *in, false
	return task.NoObservation
}
func (g *guessGame) Correct() bool { return g.won }
func (g *guessGame) Step(tok int32) (int32, float64, bool) {
	g.won = int64(tok) == g.in.Data[0]
	if g.won {
		return task.NoObservation, 1, true
	}
	return task.NoObservation, 0, true
}
func (g *guessGame) Legal(legal []bool) {
	for a := range legal {
		legal[a] = a < guessEnd && (g.in.Context[0]%2 == 1 || int64(a) == g.in.Data[0])
	}
}

// sampledGuess evaluates the uniform guess policy with n samples an
// instance and pass@k, on threads threads.
func sampledGuess(t *testing.T, threads, episodes, n, k int, out io.Writer) *trainer.Report {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Hidden, cfg.Steps, cfg.TrainLevels, cfg.Threads = "guess", 8, 1, []int{0}, threads
	cfg.Batch, cfg.Chunk, cfg.FinalEpisodes, cfg.Explain = 64, 64, episodes, 0
	r := newTaskRun(t, cfg, guess{})
	require.NoError(t, r.SetParams(make([]float32, len(r.Params()))))
	rep, err := trainer.Drive(r.tr, out, trainer.Options{EvalOnly: true, EvalSamples: n, EvalPassK: k})
	require.NoError(t, err)
	return rep
}

// pass@1 and pass@k of a policy whose pass rates are known exactly: the
// even subset's are exactly 1 (its one legal token is the answer), the odd
// subset's the uniform guess's, 1/4 and 1 − (3/4)^k, within four standard
// errors of the unbiased estimates' mean over the instances; the level's
// mixes the two by their counts. The same figures for any -threads; the
// console prints them beside the greedy ones.
func TestSampledPassAtKOfAKnownPolicy(t *testing.T) {
	const episodes, n, k = 3000, 8, 4
	var out bytes.Buffer
	rep := sampledGuess(t, 2, episodes, n, k, &out)
	require.Len(t, rep.Sampled, 3, "the level, then its subsets")
	level, even, odd := rep.Sampled[0], rep.Sampled[1], rep.Sampled[2]
	require.Equal(t, trainer.SampledResult{Level: 0, Split: "held-out", Instances: episodes, Samples: n, K: k, Temperature: 1,
		PassAt1: level.PassAt1, PassAtK: level.PassAtK}, level)
	require.Equal(t, "even", even.Subset)
	require.Equal(t, "odd", odd.Subset)
	require.Equal(t, episodes, even.Instances+odd.Instances)
	require.Positive(t, odd.Instances)
	require.Equal(t, 1.0, even.PassAt1, "one legal token, the answer: always correct")
	require.Equal(t, 1.0, even.PassAtK)
	// Each odd instance's estimate is unbiased for p1 = 1/4 and pk = 1 − (3/4)^k;
	// its variance is at most that of one Bernoulli(p) draw.
	p1, pk := 0.25, 1-math.Pow(0.75, k)
	se := func(p float64) float64 { return math.Sqrt(p * (1 - p) / float64(odd.Instances)) }
	require.InDelta(t, p1, odd.PassAt1, 4*se(p1), "odd pass@1")
	require.InDelta(t, pk, odd.PassAtK, 4*se(pk), "odd pass@%d", k)
	require.Greater(t, odd.PassAtK, odd.PassAt1+0.3, "pass@k is not pass@1")
	w := float64(even.Instances) / episodes
	require.InDelta(t, w+(1-w)*odd.PassAt1, level.PassAt1, 1e-12)
	require.InDelta(t, w+(1-w)*odd.PassAtK, level.PassAtK, 1e-12)
	require.Contains(t, out.String(), fmt.Sprintf("held-out pass@1 / pass@%d → T0=%.3f / %.3f", k, level.PassAt1, level.PassAtK))
	require.Contains(t, out.String(), "Final greedy solve rates", "beside the greedy figures")

	again := sampledGuess(t, 1, episodes, n, k, io.Discard)
	require.Equal(t, rep.Sampled, again.Sampled, "threads 2 and 1")
}

// pass@k at a temperature: near 0 the samples are the greedy choice, so
// pass@1 and pass@k are the greedy solve rate, instance by instance.
func TestSampledAtLowTemperatureIsGreedy(t *testing.T) {
	cfg := echoConfig()
	cfg.FinalEpisodes, cfg.Explain = 400, 0
	r := newTaskRun(t, cfg, echo{}) // untrained: greedy solves some
	rep, err := trainer.Drive(r.tr, io.Discard, trainer.Options{EvalOnly: true, Quiet: true, EvalSamples: 4, EvalTemperature: 1e-6})
	require.NoError(t, err)
	require.Len(t, rep.Sampled, 1)
	require.Equal(t, rep.Final.SolveRate[0], rep.Sampled[0].PassAt1)
	require.Equal(t, rep.Final.SolveRate[0], rep.Sampled[0].PassAtK)
	require.Less(t, rep.Final.SolveRate[0], 1.0, "a policy that solves everything shows nothing here")
	rep, err = trainer.Drive(newTaskRun(t, cfg, echo{}).tr, io.Discard, trainer.Options{EvalOnly: true, Quiet: true, EvalSamples: 4})
	require.NoError(t, err)
	require.NotEqual(t, rep.Final.SolveRate[0], rep.Sampled[0].PassAt1, "at temperature 1 the samples are not the greedy choice")
}
