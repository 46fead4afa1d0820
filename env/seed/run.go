package seed

// Memory is the STO register's state in the seed: None, "ok" or "use_d".
type Memory int8

const (
	MemEmpty Memory = iota // Python None
	MemOK                  // "ok"   (STO in level 0)
	MemUseD                // "use_d" (STO in levels 1 and 2)
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

// run is step_seq line by line, one Episode step per token.
func run(t Task, actions []int32, record func(TraceStep)) Outcome {
	var s Episode
	s.Reset(t)
	var o Outcome
	for _, act := range actions {
		r := s.Step(act)
		if record != nil {
			record(s.traceStep(act))
		}
		if s.Done() {
			if act == ANS {
				o = Outcome{Reward: r, Answered: true, Correct: s.Correct()}
			}
			break
		}
	}
	o.Steps = s.Steps()
	return o
}
