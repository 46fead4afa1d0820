package trainer

import "github.com/simdrl/simdrl/task"

// itemFocus draws a task.Itemized task's training items within each level
// in proportion to 0.1 + their failure rate (Config.ItemFocus): the
// expressions the policy still gets wrong are played more, as the level
// focus does for levels. An item's failure rate is an average over its
// sampled training episodes that forgets: f ← (1−itemForget)·f +
// itemForget·failed, from 1 (unseen items are drawn most).
type itemFocus struct {
	fail [][]float64 // [level][item]
	cdf  [][]float64 // [level][item]: cumulative weights (Plan.Items)
}

// itemForget is the weight of an item's newest episode in its failure rate:
// at ½ it is mostly its last two or three episodes' ("their last failure
// rate").
const itemForget = 0.5

func newItemFocus(t task.Itemized) *itemFocus {
	f := &itemFocus{}
	for lv := range t.Levels() {
		n := max(t.Items(lv, task.Training), 0)
		fail := make([]float64, n)
		for i := range fail {
			fail[i] = 1
		}
		f.fail = append(f.fail, fail)
		f.cdf = append(f.cdf, make([]float64, n))
	}
	f.refresh()
	return f
}

// observe folds an update's sampled episodes into the failure rates.
func (f *itemFocus) observe(eps []task.Episode) {
	for i := range eps {
		in := &eps[i].Instance
		lv, it := int(in.Level), int(in.Item)
		if lv < 0 || lv >= len(f.fail) || it < 0 || it >= len(f.fail[lv]) {
			continue // not a training item (the engine drew from the task's Draw)
		}
		failed := 1.0
		if eps[i].Correct {
			failed = 0
		}
		f.fail[lv][it] = (1-itemForget)*f.fail[lv][it] + itemForget*failed
	}
	f.refresh()
}

// refresh recomputes the cumulative weights from the failure rates.
func (f *itemFocus) refresh() {
	for lv, fail := range f.fail {
		var sum float64
		for _, x := range fail {
			sum += 0.1 + x
		}
		var acc float64
		for i, x := range fail {
			acc += (0.1 + x) / sum
			f.cdf[lv][i] = acc
		}
	}
}
