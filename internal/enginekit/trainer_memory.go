package enginekit

import (
	"unsafe"

	"github.com/simdrl/simdrl/task"
)

// MaxListed is the most instances of one level and split the trainer's
// exhaustive evaluation plays (trainer's maxEnumerated).
const MaxListed = 20_000

// EvalPointBytes bounds a trainer.EvalPoint's struct, of which a run keeps
// one per periodic evaluation (a test of trainer checks it).
const EvalPointBytes = 240

// A checkpoint's history as JSON: per update a training reward, per
// periodic evaluation its fields (a confirmation's too, now and then) and
// per level its rates (three, five with a sampled evaluation's pass@1 and
// pass@k); MaxHistory is the most a checkpoint keeps
// (trainer's maxHistory).
const (
	historyRewardBytes = 24
	historyEvalBytes   = 320
	historyLevelBytes  = 80
	MaxHistory         = 32 << 20
)

// RunSizes are the settings of a run (trainer.Config's fields of the same
// names) that size the trainer's own buffers.
type RunSizes struct {
	Hidden, Batch, Steps, Replay, Explain, FinalEpisodes, Updates, EvalEvery int
	ItemFocus                                                                bool
	StopAt                                                                   float64
}

// ListedSplits are the splits of level that the exhaustive evaluation lists:
// those with items, and the transfer split only where the task says it has
// some (only an Itemized task's levels may).
func ListedSplits(t task.Task, level int) []task.Split {
	var out []task.Split
	for _, sp := range []task.Split{task.HeldOut, task.Training, task.Transfer} {
		if n := task.Items(t, level, sp); n != 0 && !(sp == task.Transfer && n < 0) {
			out = append(out, sp)
		}
	}
	return out
}

// TrainerMemory estimates the bytes a trainer.Trainer of s on t allocates
// over its run, beside its engine's, in shares by the setting that drives
// each: for an Itemized task with item focus or replay, a record of every
// episode of the batch and the item weights; with replay, the replayed
// episodes of an update and the buffer of one program per training item; the
// explanations (their instances, programs and traces, all kept for the
// report); the exhaustive evaluation's lists of an Enumerator task's
// instances (the final evaluation's, and the stop rule's training split); the
// report's figures of every update and evaluation; and a checkpoint of the
// model (its file, decoded tensors and the copies a restore takes).
func TrainerMemory(s RunSizes, t task.Task) Memory {
	m := Memory{}
	episode := float64(unsafe.Sizeof(task.Episode{})) + AllocBytes(4*float64(s.Steps))
	levels := len(t.Levels())
	if it, ok := t.(task.Itemized); ok && (s.ItemFocus || s.Replay > 0) {
		m["batch"] += float64(s.Batch) * episode
		items := 0.0
		for lv := range levels {
			items += float64(max(it.Items(lv, task.Training), 0))
		}
		if s.ItemFocus {
			// the failure rates and their cumulative weights; in a
			// checkpoint, their tensor and the file's bytes
			m["item_focus"] += 4 * 8 * items
		}
		if s.Replay > 0 {
			// the replayed episodes; per item an entry (no larger than an
			// episode) and its pointers in best and order, twice (a restore
			// builds them before it replaces the run's); in a checkpoint,
			// its tensors (level, item, reward, length, program) and the
			// file's bytes
			m["replay"] += float64(s.Replay)*episode + 2*items*(episode+3*8) + 2*items*(4*8+4*float64(s.Steps))
		}
	}
	if s.Explain > 0 {
		instance := float64(unsafe.Sizeof(task.Instance{}))
		perLevel := float64(s.Explain) * (instance + 4*float64(s.Steps))
		kept := float64(levels*s.Explain) * explanationBytes(s.Steps)
		m["explain"] += perLevel + 2*kept // the report's slice grows by appends
	}
	if en, ok := t.(task.Enumerator); ok && (s.FinalEpisodes > 0 || s.StopAt > 0) {
		counted, _ := en.(task.Counted)
		n := 0.0
		for lv := range levels {
			for _, sp := range ListedSplits(t, lv) {
				c := MaxListed + 1 // what the trainer asks for at most
				if counted != nil {
					c = min(c, counted.Count(lv, sp))
				}
				n += float64(c)
			}
		}
		m["final_episodes"] += n * (float64(unsafe.Sizeof(task.Instance{})) + 1) // and its solved flag
	}
	m["updates"] += 2 * 8 * float64(s.Updates) // the training rewards, by appends
	history := float64(s.Updates) * historyRewardBytes
	if s.EvalEvery > 0 {
		m["updates"] += float64(s.Updates/s.EvalEvery) * (2*EvalPointBytes + 5*AllocBytes(8*float64(levels)))
		history += float64(s.Updates/s.EvalEvery) * (historyEvalBytes + historyLevelBytes*float64(levels))
	}
	// The checkpoint's history (trainer/history.go) is that record as JSON,
	// allocated about four times over: encoded, copied into a string,
	// escaped into the header and that header's buffer. Past its cap, none.
	if history <= MaxHistory {
		m["updates"] += 4 * history
	}
	if l, err := NewLayout(s.Hidden, t); err == nil {
		m["hidden"] += 3 * 12 * float64(l.Size) // params, m and v: in the file, decoded, restored
	}
	return m
}

// explanationBytes bounds one explanation of a rollout of steps tokens: its
// struct, context and note, and per token its name and a traced state.
func explanationBytes(steps int) float64 {
	return float64(unsafe.Sizeof(task.Explanation{})) + 256 + 160*float64(steps)
}
