package seed

import "github.com/simdrl/simdrl/rng"

// Task is one episode's input: the level and the five digits a..e the seed
// always draws (only the first 3+level are shown to the policy).
type Task struct {
	Level  int
	Digits [5]int
}

// ContextLen is the number of digits the policy sees: 3, 4 or 5.
func ContextLen(level int) int { return 3 + level }

// Context writes the policy's context tokens, the digits followed by CTX, into
// dst and returns how many it wrote (ContextLen(level)+1).
func (t Task) Context(dst []int32) int {
	n := ContextLen(t.Level)
	for i := 0; i < n; i++ {
		dst[i] = int32(t.Digits[i])
	}
	dst[n] = CTX
	return n + 1
}

// SampleTarget is what the seed's sample() returns as "target":
// a*b+c, a*b+c−d, a*b+c−d*e for levels 0, 1, 2. It is NOT what is rewarded
// (see RewardedTarget); we keep it only to show the seed's quirk.
func (t Task) SampleTarget() int {
	a, b, c, d, e := t.Digits[0], t.Digits[1], t.Digits[2], t.Digits[3], t.Digits[4]
	switch t.Level {
	case 0:
		return a*b + c
	case 1:
		return a*b + c - d
	default:
		return a*b + c - d*e
	}
}

// RewardedTarget is the value an ANS must hold to be scored correct:
// a*b, a*b+c, a*b+c−d for levels 0, 1, 2 (step_seq's target list).
func (t Task) RewardedTarget() int {
	a, b, c, d := t.Digits[0], t.Digits[1], t.Digits[2], t.Digits[3]
	switch t.Level {
	case 0:
		return a * b
	case 1:
		return a*b + c
	default:
		return a*b + c - d
	}
}

// DrawTask draws the digits of one task from the counter-based stream: a pure
// function of (key, round, episode, purpose), so it does not depend on which
// thread or device asks.
func DrawTask(key rng.Key, round, episode uint32, purpose rng.Purpose, level int) Task {
	w0 := key.Block(round, episode, 0, purpose)
	w1 := key.Block(round, episode, 1, purpose)
	t := Task{Level: level}
	t.Digits[0] = int(rng.Below(w0[0], 10))
	t.Digits[1] = int(rng.Below(w0[1], 10))
	t.Digits[2] = int(rng.Below(w0[2], 10))
	t.Digits[3] = int(rng.Below(w0[3], 10))
	t.Digits[4] = int(rng.Below(w1[0], 10))
	return t
}
