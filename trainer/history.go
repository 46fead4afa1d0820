package trainer

import (
	"encoding/json"
	"fmt"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
)

// A run's history is what its report records update by update (the
// training rewards, the evaluations, the confirmations). A checkpoint
// keeps it, so that the report of a resumed run, and the -plot drawn from
// it, are the whole run's, not the part after the resume. It is JSON in
// the metadata key historyKey, written only when there is some (a
// checkpoint of a run that did not Drive has none, as before), and read
// when present: a checkpoint from before it resumes with the history of
// the resumed part alone, as runs did.
const historyKey = "history"

// maxHistory bounds the history's JSON, which sits in the checkpoint's
// header (a reader takes at most checkpoint.MaxHeader): a run long enough
// to pass it (some hundreds of thousands of updates) saves none, and its
// resumed report is the resumed part's, as before; its -metrics file still
// has every evaluation, and simdrl report reads that.
var maxHistory = enginekit.MaxHistory

// history is the part of a Report that a checkpoint carries.
type history struct {
	TrainReward   []float64      `json:"train_reward"`
	Evaluations   []EvalPoint    `json:"evaluations"`
	Confirmations []Confirmation `json:"confirmations"`
}

func (h *history) empty() bool {
	return len(h.TrainReward) == 0 && len(h.Evaluations) == 0 && len(h.Confirmations) == 0
}

// saveHistory writes the trainer's history into f: the running report's
// (Drive's), else what the trainer was restored with.
func (tr *Trainer) saveHistory(f *checkpoint.File) {
	h := tr.past
	if tr.running != nil {
		h = history{tr.running.TrainReward, tr.running.Evaluations, tr.running.Confirmations}
	}
	if h.empty() {
		return
	}
	b, err := json.Marshal(h)
	if err != nil || len(b) > maxHistory {
		return // too long, or a NaN reward (a run that diverged) has no JSON: the checkpoint goes without
	}
	f.Metadata[historyKey] = string(b)
}

// readHistory reads f's history (none when f has none) and checks it
// against the checkpoint's update and its task's levels.
func readHistory(f *checkpoint.File, update, levels int) (history, error) {
	raw, ok := f.Metadata[historyKey]
	if !ok {
		return history{}, nil
	}
	var h history
	if err := json.Unmarshal([]byte(raw), &h); err != nil {
		return history{}, fmt.Errorf("checkpoint history: %v", err)
	}
	if len(h.TrainReward) > update {
		return history{}, fmt.Errorf("checkpoint history: %d training rewards for %d updates", len(h.TrainReward), update)
	}
	last := 0
	for _, p := range h.Evaluations {
		if p.Update <= last || p.Update > update {
			return history{}, fmt.Errorf("checkpoint history: an evaluation at update %d (after %d, in a run of %d updates)", p.Update, last, update)
		}
		if len(p.SolveRate) != levels || len(p.MeanReward) != levels {
			return history{}, fmt.Errorf("checkpoint history: update %d's evaluation has %d solve rates for %d levels", p.Update, len(p.SolveRate), levels)
		}
		last = p.Update
	}
	return h, nil
}
