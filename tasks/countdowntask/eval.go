package countdowntask

import (
	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// ListedCountdown is how many instances of each split a Countdown task's
// evaluations play (Instances): a fixed draw, the same for the policy and
// the baselines (scripts/countdownbaselines). The 24 Game lists its
// splits' hands whole.
const ListedCountdown = 1000

// listKey draws Countdown's listed instances.
var listKey = rng.NewKey(0xC0DE_0053)

// list builds the listed instances once: the 24 Game's hands, Countdown's
// ListedCountdown draws of each split, through the cache (cachedListing).
func (t *poolTask) list() {
	t.listOnce.Do(func() {
		if t.rules == countdown.Fractions {
			for _, sp := range []task.Split{task.Training, task.HeldOut} {
				hs := splitHands(sp)
				for i := range hs {
					t.listed[sp] = append(t.listed[sp], t.handInstance(hs, i))
				}
			}
			return
		}
		listed := cachedListing(t.n, drawListing)
		for sp, ins := range listed {
			for _, in := range ins {
				t.listed[sp] = append(t.listed[sp], instance(in.Numbers[:in.N], in.Target, t.budget))
			}
		}
	})
}

// drawListing draws Countdown's listed instances of pools of n numbers:
// instance e of split s is draw (s, e) of listKey's evaluation stream.
func drawListing(n int) (out [2][]countdown.Instance) {
	for sp := range out {
		for e := range uint32(ListedCountdown) {
			out[sp] = append(out[sp], countdown.Draw(n, listKey, uint32(sp), e, rng.PurposeEval, task.Split(sp) == task.HeldOut))
		}
	}
	return out
}

// Instances lists split's evaluation instances in a fixed order, at most
// max (0: all): Countdown's ListedCountdown fixed draws, the 24 Game's
// hands.
func (t *poolTask) Instances(level int, split task.Split, max int) []task.Instance {
	if level != 0 || split > task.HeldOut {
		return nil
	}
	t.list()
	ins := t.listed[split]
	if max > 0 && max < len(ins) {
		ins = ins[:max]
	}
	return append([]task.Instance(nil), ins...)
}

// Count is how many instances Instances lists.
func (t *poolTask) Count(level int, split task.Split) int {
	if level != 0 || split > task.HeldOut {
		return 0
	}
	if t.rules == countdown.Fractions {
		if split == task.HeldOut {
			return len(hands().HeldOut)
		}
		return len(hands().Training)
	}
	return ListedCountdown
}

// The subsets: instances that no + and − alone solve; Countdown's with a
// held-out target, the 24 Game's that need a fraction on every way.
const (
	subsetMulDiv = 1 << iota
	subsetSecond
)

// SubsetNames: "needs*/" then "new target" (Countdown) or "fractions".
func (t *poolTask) SubsetNames() []string {
	if t.rules == countdown.Fractions {
		return []string{"needs*/", "fractions"}
	}
	return []string{"needs*/", "new target"}
}

// Subsets is in's bitmask (brute-force searches, countdown.SolvableNumbers).
func (t *poolTask) Subsets(in *task.Instance) uint32 {
	n := int(min(max(in.Data[dataN], 0), countdown.MaxNumbers))
	numbers, target := in.Data[dataNumbers:dataNumbers+n], in.Data[dataTarget]
	var s uint32
	if !countdown.SolvableNumbers(t.rules, numbers, target, countdown.Restrict{NoMulDiv: true}) {
		s |= subsetMulDiv
	}
	if t.rules == countdown.Fractions && !countdown.SolvableNumbers(t.rules, numbers, target, countdown.Restrict{WholeOnly: true}) ||
		t.rules == countdown.Integers && countdown.NewTarget(in.Data[dataTarget]) {
		s |= subsetSecond
	}
	return s
}

// SteersOnTraining: the held-out split's listed instances are the final
// evaluation's test, so the runs steer and confirm on training instances
// (task.TrainingSteered).
func (t *poolTask) SteersOnTraining() bool { return true }

var _ task.TrainingSteered = (*poolTask)(nil)
