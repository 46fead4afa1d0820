package env

// Memory is the STO register's state in the seed: None, "ok" or "use_d".
type Memory int8

const (
	MemEmpty Memory = iota // Python None
	MemOK                  // "ok"   (STO in stage 0)
	MemUseD                // "use_d" (STO in stages 1 and 2)
)

func (m Memory) String() string {
	switch m {
	case MemOK:
		return "ok"
	case MemUseD:
		return "use_d"
	}
	return "None"
}

// Outcome is what running a program gives.
type Outcome struct {
	Reward   float64 // the seed's reward, bit for bit
	Steps    int     // tokens consumed, no-ops included
	Answered bool    // the program reached ANS within MaxSteps
	Correct  bool    // the answer equalled the rewarded target
}

// TraceStep records the machine after one token, for explanations.
type TraceStep struct {
	Token   int
	HasLast bool // false while the seed's `last` is None
	Last    int
	Mem     Memory
}

// Run executes a program as the seed's step_seq does and returns its outcome.
// It allocates nothing.
func Run(t Task, actions []int32) Outcome {
	return run(t, actions, nil)
}

// Trace is Run that also appends one TraceStep per consumed token to trace.
func Trace(t Task, actions []int32, trace []TraceStep) (Outcome, []TraceStep) {
	o := run(t, actions, func(s TraceStep) { trace = append(trace, s) })
	return o, trace
}

// run is step_seq line by line. Python's `last` is (hasLast, last); its
// integers are unbounded, ours are int64: at most 7 MULs by a digit from
// 81 stay far inside.
func run(t Task, actions []int32, record func(TraceStep)) Outcome {
	a, b, c, d, e := int64(t.Digits[0]), int64(t.Digits[1]), int64(t.Digits[2]), int64(t.Digits[3]), int64(t.Digits[4])
	stage := t.Stage
	var last int64
	hasLast := false
	mem := MemEmpty
	steps := 0
	goal0 := a * b
	goal1 := goal0 + c
	goal2 := goal1 - d
	goal3 := d * e
	goal4 := goal1 - goal3
	is := func(v int64) float64 { // Python's True/False in arithmetic; None == int is False
		if hasLast && last == v {
			return 1
		}
		return 0
	}
	for _, act := range actions {
		steps++
		switch act {
		case MUL:
			if !hasLast {
				last, hasLast = a*b, true
			} else if stage > 0 {
				last *= d
			}
		case ADD:
			if hasLast {
				last += c
			}
		case SUB:
			if hasLast {
				switch {
				case stage == 2 && mem == MemUseD:
					last -= e
				case stage > 0:
					last -= d
				}
			}
		case STO:
			if stage >= 1 {
				mem = MemUseD
			} else {
				mem = MemOK
			}
		case RCL:
			if mem != MemEmpty {
				if stage == 2 && mem == MemUseD {
					last, hasLast = d*e, true
				} else if !hasLast { // `last if last else 0`: None and 0 both give 0
					last, hasLast = 0, true
				}
			}
		case ANS:
			if record != nil {
				record(TraceStep{Token: int(act), HasLast: hasLast, Last: int(last), Mem: mem})
			}
			target := [3]int64{goal0, goal1, goal2}[stage]
			correct := hasLast && last == target
			// The seed accumulates `shaped` from 0.0 with the terms summed
			// left to right first; the same float64 operations give the same bits.
			shaped := 0.0
			switch stage {
			case 0:
				shaped += 0.25*is(goal0) + 0.5*is(goal1)
			case 1:
				shaped += 0.25*is(goal0) + 0.5*is(goal1) + 0.75*is(goal2)
			case 2:
				shaped += 0.2*is(goal0) + 0.4*is(goal1) + 0.6*is(goal4) + 0.6*is(goal3)
			}
			base := 0.0
			if correct {
				base = 1.0
			}
			// float64(…) rounds the product before the sum: Go may fuse a*b+c
			// into one FMA on arm64, the seed (and the GPU) does not.
			return Outcome{Reward: base + float64(0.2*shaped), Steps: steps, Answered: true, Correct: correct}
		}
		if record != nil {
			record(TraceStep{Token: int(act), HasLast: hasLast, Last: int(last), Mem: mem})
		}
		if steps >= MaxSteps {
			break
		}
	}
	return Outcome{Steps: steps}
}
