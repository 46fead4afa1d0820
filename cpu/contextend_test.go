package cpu

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// maxBit is a task with a vocabulary of its own, bound to no digit but its
// two bits and without a token 10: it shows two bits a, b then its own
// context end END; a program writes one bit then ANS, and is correct when
// the last bit written before ANS is max(a, b).
type maxBit struct{ end int32 }

const (
	maxBitEnd   = 2 // ends the contexts; the programs' first input
	maxBitANS   = 3
	maxBitVocab = 4
)

var maxBitLevel = task.Level{Name: "max(a,b)", Context: 2, Budget: 2, Shortest: 2}

func (maxBit) Name() string         { return "maxbit" }
func (maxBit) Vocab() int           { return maxBitVocab }
func (t maxBit) ContextEnd() int32  { return t.end }
func (maxBit) NotActions() []int32  { return []int32{maxBitEnd} }
func (maxBit) Answer() int32        { return maxBitANS }
func (maxBit) HoldsOut() bool       { return false } // 4 instances: evaluations see them all
func (maxBit) Levels() []task.Level { return []task.Level{maxBitLevel} }
func (maxBit) TokenName(tok int32) string {
	switch tok {
	case 0, 1:
		return fmt.Sprint(tok)
	case maxBitEnd:
		return "END"
	case maxBitANS:
		return "ANS"
	}
	return fmt.Sprintf("?%d", tok)
}

func (maxBit) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, _ task.Split) task.Instance {
	r := key.Block(round, episode, 0, purpose)
	in := task.Instance{Level: int32(lv), NContext: 2, Budget: int32(maxBitLevel.Budget)}
	in.Context[0], in.Context[1] = int32(r[0]%2), int32(r[1]%2)
	in.Data[0] = int64(max(in.Context[0], in.Context[1]))
	return in
}

// maxBitAnswer is the last bit written before the first ANS within the
// budget (-1: none, or no ANS).
func maxBitAnswer(in *task.Instance, program []int32) int64 {
	last := int64(-1)
	for i, tok := range program {
		if i >= int(in.Budget) {
			break
		}
		switch tok {
		case maxBitANS:
			return last
		case 0, 1:
			last = int64(tok)
		}
	}
	return -1
}

func (maxBit) Score(in *task.Instance, program []int32) task.Outcome {
	if maxBitAnswer(in, program) == in.Data[0] {
		return task.Outcome{Reward: 1, Correct: true}
	}
	return task.Outcome{}
}

func (t maxBit) Explain(in *task.Instance, program []int32) task.Explanation {
	o := t.Score(in, program)
	ex := task.Explanation{Level: int(in.Level), Name: maxBitLevel.Name, Context: append([]int32(nil), in.Context[:in.NContext]...),
		Target: fmt.Sprint(in.Data[0]), Reward: o.Reward, Correct: o.Correct}
	for i, tok := range program {
		ex.Tokens = append(ex.Tokens, t.TokenName(tok))
		if i < int(in.Budget) {
			ex.Trace = append(ex.Trace, task.Step{Token: t.TokenName(tok), State: fmt.Sprintf("answer=%d", maxBitAnswer(in, program[:i+1]))})
		}
		if tok == maxBitANS {
			break
		}
	}
	return ex
}

// maxBitConfig is the default recipe on a maxBit task (its budget as the
// rollout, its one level), small enough to learn in about a second.
func maxBitConfig() trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Threads, cfg.Hidden, cfg.Updates = "maxbit", 2, 32, 300
	cfg.Steps, cfg.TrainLevels = maxBitLevel.Budget, []int{0}
	cfg.StopAt = 0 // the whole schedule: its entropy decays to 0, the policy ends greedy
	cfg.Explain = 2
	return cfg
}

// TestTaskWithItsOwnContextEnd: a task of 4 tokens, whose contexts end with
// its own token 2 (task.ContextEnder) and that has no token 10 (task.CTX),
// trains on the CPU engine to a final solve rate of at least 0.99.
func TestTaskWithItsOwnContextEnd(t *testing.T) {
	tk := maxBit{end: maxBitEnd}
	require.Equal(t, int32(maxBitEnd), task.ContextEnd(tk))
	cfg := maxBitConfig()
	e, err := NewWithTask(cfg, tk)
	require.NoError(t, err)
	require.Equal(t, int32(maxBitEnd), e.layout.Start, "the task's context end is every rollout's first input")
	tr, err := trainer.New(cfg, tk, e)
	require.NoError(t, err)
	start := time.Now()
	rep, err := trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
	require.NoError(t, err)
	t.Logf("solved %v after %d updates in %v", rep.Final.SolveRate, rep.Updates, time.Since(start))
	require.GreaterOrEqual(t, rep.Final.SolveRate[0], 0.99)
}

// TestContextEndOutsideTheVocabularyRefused: the engine refuses a task whose
// context end is not one of its tokens, with one line that says so.
func TestContextEndOutsideTheVocabularyRefused(t *testing.T) {
	for _, end := range []int32{maxBitVocab, task.CTX, -1} {
		_, err := NewWithTask(maxBitConfig(), maxBit{end: end})
		require.ErrorContains(t, err, fmt.Sprintf("task maxbit: its context end (ContextEnd) %d is outside its vocabulary (0..3)", end))
	}
}

// TestContextEndDefaultsToCTX: a task that declares no context end ends its
// contexts with task.CTX, token 10, the first input of gru.NewLayout's
// layouts.
func TestContextEndDefaultsToCTX(t *testing.T) {
	require.Equal(t, int32(task.CTX), task.ContextEnd(seedtask.Seed()))
	e, err := NewWithTask(trainer.ReferenceRecipe(), seedtask.Seed())
	require.NoError(t, err)
	defer e.Close()
	require.Equal(t, int32(task.CTX), e.layout.Start)
}
