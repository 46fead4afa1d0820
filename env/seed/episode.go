package seed

// Episode is step_seq's state between two tokens, so that a program can be
// run token by token (an engine asks the task between the policy's steps).
// Run and Trace step through it: there is one implementation of the seed's
// rules. The zero Episode is not started; call Reset.
type Episode struct {
	a, b, c, d, e int64
	level         int
	last          int64 // Python's `last` is (hasLast, last)
	hasLast       bool
	mem           Memory
	steps         int
	done          bool
	truncated     bool // ended by MaxSteps, not by ANS
	correct       bool
}

// Reset starts an episode of t.
func (s *Episode) Reset(t Task) {
	*s = Episode{a: int64(t.Digits[0]), b: int64(t.Digits[1]), c: int64(t.Digits[2]), d: int64(t.Digits[3]), e: int64(t.Digits[4]), level: t.Level}
}

// Done reports whether the episode has ended: at its ANS, or after MaxSteps
// tokens.
func (s *Episode) Done() bool { return s.done }

// Truncated reports whether MaxSteps cut the episode: it ended without ANS.
func (s *Episode) Truncated() bool { return s.truncated }

// Correct reports whether the episode ended with ANS on the rewarded target.
func (s *Episode) Correct() bool { return s.correct }

// Steps is the number of tokens consumed, ANS included.
func (s *Episode) Steps() int { return s.steps }

// Step consumes one token and returns what it earned: the seed pays only at
// ANS (its whole reward, shaped bonus included); every other token, and
// every token after the end, earns 0. Integers are int64: at most 7 MULs by
// a digit from 81 stay far inside Python's unbounded ones.
func (s *Episode) Step(act int32) float64 {
	if s.done {
		return 0
	}
	s.steps++
	switch act {
	case MUL:
		if !s.hasLast {
			s.last, s.hasLast = s.a*s.b, true
		} else if s.level > 0 {
			s.last *= s.d
		}
	case ADD:
		if s.hasLast {
			s.last += s.c
		}
	case SUB:
		if s.hasLast {
			switch {
			case s.level == 2 && s.mem == MemUseD:
				s.last -= s.e
			case s.level > 0:
				s.last -= s.d
			}
		}
	case STO:
		if s.level >= 1 {
			s.mem = MemUseD
		} else {
			s.mem = MemOK
		}
	case RCL:
		if s.mem != MemEmpty {
			if s.level == 2 && s.mem == MemUseD {
				s.last, s.hasLast = s.d*s.e, true
			} else if !s.hasLast { // `last if last else 0`: None and 0 both give 0
				s.last, s.hasLast = 0, true
			}
		}
	case ANS:
		s.done = true
		return s.answer()
	}
	if s.steps >= MaxSteps {
		s.done, s.truncated = true, true
	}
	return 0
}

// answer is step_seq's reward at ANS.
func (s *Episode) answer() float64 {
	goal0 := s.a * s.b
	goal1 := goal0 + s.c
	goal2 := goal1 - s.d
	goal3 := s.d * s.e
	goal4 := goal1 - goal3
	is := func(v int64) float64 { // Python's True/False in arithmetic; None == int is False
		if s.hasLast && s.last == v {
			return 1
		}
		return 0
	}
	target := [3]int64{goal0, goal1, goal2}[s.level]
	s.correct = s.hasLast && s.last == target
	// The seed accumulates `shaped` from 0.0 with the terms summed
	// left to right first; the same float64 operations give the same bits.
	shaped := 0.0
	switch s.level {
	case 0:
		shaped += 0.25*is(goal0) + 0.5*is(goal1)
	case 1:
		shaped += 0.25*is(goal0) + 0.5*is(goal1) + 0.75*is(goal2)
	case 2:
		shaped += 0.2*is(goal0) + 0.4*is(goal1) + 0.6*is(goal4) + 0.6*is(goal3)
	}
	base := 0.0
	if s.correct {
		base = 1.0
	}
	// float64(…) rounds the product before the sum: Go may fuse a*b+c
	// into one FMA on arm64, the seed (and the GPU) does not.
	return base + float64(0.2*shaped)
}

// traceStep is the machine after the last token, for explanations.
func (s *Episode) traceStep(tok int32) TraceStep {
	return TraceStep{Token: int(tok), HasLast: s.hasLast, Last: int(s.last), Mem: s.mem}
}
