package task

import (
	"math"
	"strconv"
)

// Scorer is a task that scores a whole program itself, rather than by
// stepping it (Score): the built-in tasks, whose engines' interpreters give
// the same scores (Interpreted).
type Scorer interface {
	Task
	// Score runs program on in and rewards it. It allocates nothing.
	Score(in *Instance, program []int32) Outcome
}

// Explainer is a task that says itself what every token of a program did,
// rather than by stepping it (Explain).
type Explainer interface {
	Task
	// Explain scores program on in and says what every token did.
	Explain(in *Instance, program []int32) Explanation
}

// Score is what program earns on in: t's own Score when t is a Scorer, else
// the return of stepping program on in through t's Env (NewEnv) up to the
// episode's end, Correct as the Env says.
func Score(t Task, in *Instance, program []int32) Outcome {
	if s, ok := t.(Scorer); ok {
		return s.Score(in, program)
	}
	return play(t, in, program, nil)
}

// Explain is program on in token by token: t's own Explain when t is an
// Explainer, else stepped through t's Env (NewEnv), each step's state its
// observation (for an Observer) and what it earned.
func Explain(t Task, in *Instance, program []int32) Explanation {
	if x, ok := t.(Explainer); ok {
		return x.Explain(in, program)
	}
	ex := Explanation{Level: int(in.Level), Context: append([]int32(nil), in.Context[:max(0, min(in.NContext, MaxContext))]...)}
	if levels := t.Levels(); in.Level >= 0 && int(in.Level) < len(levels) {
		ex.Name = levels[in.Level].Name
	}
	for _, tok := range program {
		ex.Tokens = append(ex.Tokens, t.TokenName(tok))
	}
	o, named := Observer(nil), false
	if o, named = t.(Observer); named && o.Observations() == 0 {
		named = false
	}
	out := play(t, in, program, func(tok, obs int32, reward float64, illegal bool) {
		if illegal {
			ex.Trace = append(ex.Trace, Step{Token: t.TokenName(tok), State: "illegal here (the task's mask): the episode ends"})
			return
		}
		state := rewardWords(reward)
		if named {
			state = "obs " + o.ObservationName(obs) + " · " + state
		}
		ex.Trace = append(ex.Trace, Step{Token: t.TokenName(tok), State: state})
	})
	ex.Reward, ex.Correct = out.Reward, out.Correct
	return ex
}

// play steps program on in through a one-row Env of t until the episode
// ends, calling step (when not nil) after every token with what the Env
// returned, and returns the episode's return and whether it was correct.
// With a legal-action mask (Masker), a token the mask refuses ends the
// episode before it is stepped, wrong, with what it earned so far (step
// is told: illegal): a policy under the mask never plays one.
func play(t Task, in *Instance, program []int32, step func(tok, obs int32, reward float64, illegal bool)) Outcome {
	env := NewEnv(t, 1)
	masker, masked := env.(Masker)
	var legal []bool
	if masked {
		legal = make([]bool, t.Vocab())
	}
	var (
		act    [1]int32
		obs    [1]int32
		reward [1]float64
		done   [1]bool
	)
	out := Transition{Obs: obs[:], Reward: reward[:], Done: done[:]}
	env.Reset(0, in)
	total := 0.0
	for _, tok := range program {
		if masked {
			masker.Legal(0, legal)
			if tok < 0 || int(tok) >= len(legal) || !legal[tok] {
				if step != nil {
					step(tok, NoObservation, 0, true)
				}
				return Outcome{Reward: total}
			}
		}
		act[0] = tok
		env.Step(act[:], out)
		total += reward[0]
		if step != nil {
			step(tok, obs[0], reward[0], false)
		}
		if done[0] {
			break
		}
	}
	return Outcome{Reward: total, Correct: env.Correct(0)}
}

// rewardWords is a step's reward as an explanation prints it: three
// decimals at most ("reward 0.333", not 0.3333333333333333; "reward 1").
func rewardWords(r float64) string {
	return "reward " + strconv.FormatFloat(math.Round(r*1000)/1000, 'g', -1, 64)
}
