package trainer

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
)

// A checkpoint is a safetensors file: the model under PyTorch's state_dict
// names and shapes (a PyTorch module of the seed's shape loads it with
// load_state_dict), Adam's moments as optimizer.exp_avg.<name> and
// optimizer.exp_avg_sq.<name>, and in the metadata the config and the
// training state. The random numbers are counter-based, so the update
// counter is the whole RNG position.

const (
	checkpointFormat = "simdrl-checkpoint/1"
	expAvgPrefix     = "optimizer.exp_avg."
	expAvgSqPrefix   = "optimizer.exp_avg_sq."
)

// trainState is the part of a trainer that is neither config nor tensor.
type trainState struct {
	Update       int                    `json:"update"`
	AdamStep     int                    `json:"adam_step"`
	Unlocked     int                    `json:"unlocked"`
	HaveEval     bool                   `json:"have_eval"`
	LastSolve    [env.NumStages]float64 `json:"last_solve_rate"`
	LastReward   [env.NumStages]float64 `json:"last_mean_reward"`
	LastEpisodes [env.NumStages]int     `json:"last_episodes"`
	SolvedStreak int                    `json:"solved_streak"`
}

// Checkpoint captures everything needed to continue bit-identically.
func (t *Trainer) Checkpoint() *checkpoint.File {
	return BuildCheckpoint(t.cfg, t.Layout, t.model.params, t.opt.m, t.opt.v, t.update, t.opt.step, t.cur)
}

// BuildCheckpoint is a checkpoint of any engine's state: the parameters and
// Adam's moments (flat, in l's order), the update counter, Adam's step count
// and the curriculum (the GPU path writes the same files as the CPU).
func BuildCheckpoint(cfg Config, l *gru.Layout, params, m, v []float32, update, adamStep int, c *Curriculum) *checkpoint.File {
	f := &checkpoint.File{Metadata: map[string]string{}}
	for _, tn := range l.Tensors {
		f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: tn.Name, Shape: tn.Shape, Data: tn.View(params)})
	}
	for _, tn := range l.Tensors {
		f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: expAvgPrefix + tn.Name, Shape: tn.Shape, Data: tn.View(m)})
	}
	for _, tn := range l.Tensors {
		f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: expAvgSqPrefix + tn.Name, Shape: tn.Shape, Data: tn.View(v)})
	}
	st := trainState{Update: update, AdamStep: adamStep, Unlocked: c.unlocked, HaveEval: c.haveEval, SolvedStreak: c.streak}
	for s, e := range c.lastEval {
		st.LastSolve[s], st.LastReward[s], st.LastEpisodes[s] = e.SolveRate, e.MeanReward, e.Episodes
	}
	cfgJSON, _ := json.Marshal(cfg)
	state, _ := json.Marshal(st)
	f.Metadata["format"] = checkpointFormat
	f.Metadata["config"] = string(cfgJSON)
	f.Metadata["state"] = string(state)
	f.Metadata["update"] = strconv.Itoa(update)
	f.Metadata["rng"] = "philox4x32-10, counter-based: the position is the update counter"
	return f
}

// CheckpointConfig reads the config stored in a checkpoint.
func CheckpointConfig(f *checkpoint.File) (Config, error) {
	if got := f.Metadata["format"]; got != checkpointFormat {
		return Config{}, fmt.Errorf("not a simdrl checkpoint (format %q, want %q)", got, checkpointFormat)
	}
	var cfg Config
	if err := json.Unmarshal([]byte(f.Metadata["config"]), &cfg); err != nil {
		return Config{}, fmt.Errorf("checkpoint config: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, fmt.Errorf("checkpoint config: %v", err)
	}
	return cfg, nil
}

// LoadWeights copies the model tensors of f into the trainer, checking every
// name and shape; the optimiser and the training state are left as they are
// (-load).
func (t *Trainer) LoadWeights(f *checkpoint.File) error {
	return t.model.set(func(p []float32) error { return LoadParams(f, t.Layout, p) })
}

// Resume builds a trainer from a checkpoint written by Checkpoint: cfg must
// be the checkpoint's config (possibly with flags applied on top; changing
// -updates or the recipe changes what happens next).
func Resume(f *checkpoint.File, cfg Config) (*Trainer, error) {
	t, err := New(cfg)
	if err != nil {
		return nil, err
	}
	err = t.model.set(func(p []float32) error {
		t.update, t.opt.step, err = RestoreCheckpoint(f, t.Layout, p, t.opt.m, t.opt.v, t.cur)
		return err
	})
	if err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// RestoreCheckpoint is BuildCheckpoint's inverse: it fills params, m and v
// (flat, in l's order) and the curriculum c from f, checking every name and
// shape, and returns the update counter and Adam's step count.
func RestoreCheckpoint(f *checkpoint.File, l *gru.Layout, params, m, v []float32, c *Curriculum) (update, adamStep int, err error) {
	if err := copyTensors(f, l, "", params); err != nil {
		return 0, 0, err
	}
	if err := copyTensors(f, l, expAvgPrefix, m); err != nil {
		return 0, 0, err
	}
	if err := copyTensors(f, l, expAvgSqPrefix, v); err != nil {
		return 0, 0, err
	}
	var st trainState
	if err := json.Unmarshal([]byte(f.Metadata["state"]), &st); err != nil {
		return 0, 0, fmt.Errorf("checkpoint state: %v", err)
	}
	if st.Update < 0 || st.AdamStep < 0 || st.Unlocked < 1 || st.Unlocked > len(c.mix) || st.SolvedStreak < 0 {
		return 0, 0, fmt.Errorf("checkpoint state out of range: %+v", st)
	}
	c.unlocked, c.haveEval, c.streak = st.Unlocked, st.HaveEval, st.SolvedStreak
	for s := range c.lastEval {
		c.lastEval[s] = EvalResult{Stage: s, Episodes: st.LastEpisodes[s], SolveRate: st.LastSolve[s], MeanReward: st.LastReward[s]}
	}
	return st.Update, st.AdamStep, nil
}

// LoadParams copies the model tensors of f into params (flat, in l's order),
// checking every name and shape (-load on any engine).
func LoadParams(f *checkpoint.File, l *gru.Layout, params []float32) error {
	return copyTensors(f, l, "", params)
}

// copyTensors fills dst (in layout order) from the tensors named prefix+name.
func copyTensors(f *checkpoint.File, l *gru.Layout, prefix string, dst []float32) error {
	for _, tn := range l.Tensors {
		ct, ok := f.Lookup(prefix + tn.Name)
		if !ok {
			return fmt.Errorf("checkpoint has no tensor %s", prefix+tn.Name)
		}
		if !equalShape(ct.Shape, tn.Shape) {
			return fmt.Errorf("checkpoint tensor %s has shape %v, this model needs %v (check -hidden)", ct.Name, ct.Shape, tn.Shape)
		}
		copy(tn.View(dst), ct.Data)
	}
	return nil
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
