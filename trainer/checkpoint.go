package trainer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
)

// A checkpoint is a safetensors file: the model under PyTorch's state_dict
// names and shapes (a PyTorch module of the seed's shape loads it with
// load_state_dict), Adam's moments as optimizer.exp_avg.<name> and
// optimizer.exp_avg_sq.<name>, and in the metadata the config and the
// training state. The random numbers are counter-based, so the update
// counter is the whole RNG position.

// checkpointFormat is the format of a checkpoint without an item state;
// one with it is itemsFormat (items_state.go), and both read.
const checkpointFormat = "simdrl-checkpoint/1"

// trainState is the part of a trainer that is neither config nor tensor.
type trainState struct {
	Update       int       `json:"update"`
	AdamStep     int       `json:"adam_step"`
	Unlocked     int       `json:"unlocked"`
	HaveEval     bool      `json:"have_eval"`
	LastSolve    []float64 `json:"last_solve_rate"` // by level
	LastReward   []float64 `json:"last_mean_reward"`
	LastEpisodes []int     `json:"last_episodes"`
	SolvedStreak int       `json:"solved_streak"` // periodic evaluations in a row at stop_at (informative since confirmations)
	Solved       bool      `json:"solved"`        // a confirmation supported stop_at: the run is over
	EvalPending  bool      `json:"eval_pending"`  // update's periodic evaluation was interrupted: redone on resume
	// Confirmations counts the confirmations so far: the stop rule tests
	// the next one at its share of the run's α (stoprule.go). Absent when
	// 0, so a run that never confirmed writes the state it always did.
	Confirmations int `json:"confirmations,omitempty"`
}

// addedStateKeys came after the first checkpoints. A state without
// "solved" is from before confirmations, when two evaluations in a row at
// stop_at ended the run: solved_streak ≥ 2 keeps that verdict, so a run
// that stopped stays stopped on resume; otherwise the new rule applies from
// the next evaluation. A state without "confirmations" (from before the
// stop rule spent its α over the run) counts from 0: the run's next
// confirmation is tested as its first.
var addedStateKeys = map[string]bool{"solved": true, "eval_pending": true, "confirmations": true}

// buildCheckpoint is a checkpoint of any engine's state: the parameters and
// Adam's moments (flat, in l's order), the update counter, Adam's step count
// and the curriculum (every engine writes the same files).
func buildCheckpoint(cfg Config, l *gru.Layout, params, m, v []float32, update, adamStep int, c *curriculum) *checkpoint.File {
	f := &checkpoint.File{Metadata: map[string]string{}}
	enginekit.AppendTensors(f, l, params, m, v)
	st := trainState{Update: update, AdamStep: adamStep, Unlocked: c.unlocked, HaveEval: c.haveEval, SolvedStreak: c.streak, Solved: c.solved, EvalPending: c.pendingEval,
		Confirmations: c.confirmations}
	for _, e := range c.lastEval {
		st.LastSolve = append(st.LastSolve, e.SolveRate)
		st.LastReward = append(st.LastReward, e.MeanReward)
		st.LastEpisodes = append(st.LastEpisodes, e.Episodes)
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

// CheckpointConfig reads the config stored in a checkpoint
// (ReadCheckpointConfig) and validates it as strictly as a command line
// (cfg.Validate, which opens its task: a calc curriculum is parsed and
// searched, within the limits of env/calc).
func CheckpointConfig(f *checkpoint.File) (Config, error) {
	cfg, err := ReadCheckpointConfig(f)
	if err != nil {
		return Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, fmt.Errorf("checkpoint config: %v", err)
	}
	return cfg, nil
}

// ReadCheckpointConfig reads the config stored in a checkpoint without
// opening its task (the caller may then parse its levels with an interrupt
// and progress, or compare them first): besides the recipe's name, the JSON must name every field of
// Config exactly once and nothing else (json.Unmarshal alone would match keys
// case-insensitively, ignore unknown ones, keep the last of duplicates and
// leave missing fields at their zero values, which for some fields, such as
// entropy_final, silently changes the run).
func ReadCheckpointConfig(f *checkpoint.File) (Config, error) {
	if got := f.Metadata["format"]; got != checkpointFormat && got != itemsFormat {
		return Config{}, fmt.Errorf("not a simdrl checkpoint (format %q, want %q or %q)", got, checkpointFormat, itemsFormat)
	}
	raw, ok := f.Metadata["config"]
	if !ok {
		return Config{}, fmt.Errorf("checkpoint has no config (metadata key \"config\")")
	}
	cfg := Config{Task: "seed"} // what a checkpoint from before tasks trained
	if err := decodeStrict(raw, &cfg, legacyConfigKeys, addedConfigKeys); err != nil {
		return Config{}, fmt.Errorf("checkpoint config: %v", err)
	}
	if err := mapCalcOptions(raw, &cfg); err != nil {
		return Config{}, fmt.Errorf("checkpoint config: %v", err)
	}
	if _, err := Recipe(cfg.Recipe); err != nil {
		return Config{}, fmt.Errorf("checkpoint config: %v", err)
	}
	return cfg, nil
}

// restoreCheckpoint is buildCheckpoint's inverse: it fills params, m and v
// (flat, in l's order) and the curriculum c from f, checking every name,
// shape and value (no NaN or Inf anywhere, no negative second moment), the
// training state's fields and ranges, and that f holds no other tensors, and
// returns the update counter and Adam's step count. On an error it changes
// nothing.
func restoreCheckpoint(f *checkpoint.File, l *gru.Layout, params, m, v []float32, c *curriculum) (update, adamStep int, err error) {
	tensors, err := enginekit.ReadTensors(f, l, isItemTensor)
	if err != nil {
		return 0, 0, err
	}
	st, err := readState(f, len(c.mix), len(c.lastEval), c.cfg.optimizerSteps())
	if err != nil {
		return 0, 0, err
	}
	tensors.CopyTo(params, m, v)
	c.unlocked, c.haveEval, c.streak, c.solved, c.pendingEval = st.Unlocked, st.HaveEval, st.SolvedStreak, st.Solved, st.EvalPending
	c.confirmations = st.Confirmations
	for s := range c.lastEval {
		c.lastEval[s] = EvalResult{Level: s, Episodes: st.LastEpisodes[s], SolveRate: st.LastSolve[s], MeanReward: st.LastReward[s]}
	}
	return st.Update, st.AdamStep, nil
}

// readState decodes f's training state, strictly, and checks its fields
// for a curriculum that can unlock unlockable of the environment's levels
// (−1 for both: the levels the state's last evaluation lists), and the
// metadata's update against it; an update takes stepsPerUpdate Adam steps
// (0: unknown, any whole number).
func readState(f *checkpoint.File, unlockable, levels, stepsPerUpdate int) (trainState, error) {
	raw, ok := f.Metadata["state"]
	if !ok {
		return trainState{}, fmt.Errorf("checkpoint has no training state (metadata key \"state\")")
	}
	var st trainState
	if err := decodeStrict(raw, &st, nil, addedStateKeys); err != nil {
		return trainState{}, fmt.Errorf("checkpoint state: %v", err)
	}
	if !hasField(raw, "solved") {
		st.Solved = st.SolvedStreak >= 2
	}
	if levels < 0 {
		levels, unlockable = len(st.LastSolve), len(st.LastSolve)
	}
	if err := st.check(unlockable, levels, stepsPerUpdate); err != nil {
		return trainState{}, fmt.Errorf("checkpoint state: %v", err)
	}
	if u, ok := f.Metadata["update"]; ok && u != strconv.Itoa(st.Update) {
		return trainState{}, fmt.Errorf("checkpoint metadata update %q disagrees with the state's update %d", u, st.Update)
	}
	return st, nil
}

// checkLoadedState checks, for LoadWeights, the training state and the
// item state of a file that has them as Restore does, but against the
// file's own config (the run may train other levels or items), or when
// that does not read or validate, against the levels the state lists and
// the item state's own structure. A file without them (weights only, as
// another tool may write) passes: -load takes only its weights, and a file
// it takes them from is sound as a whole or refused.
func checkLoadedState(f *checkpoint.File) error {
	return CheckLoadedState(f)
}

// CheckLoadedState is what LoadWeights checks of f besides its tensors
// (checkLoadedState): a program that takes only the weights (package
// policy) refuses the damaged files -load refuses.
func CheckLoadedState(f *checkpoint.File) error {
	unlockable, levels, steps := -1, -1, 0
	var saved *Config
	var t task.Task
	if cfg, err := ReadCheckpointConfig(f); err == nil {
		if tk, err := cfg.OpenTask(); err == nil && cfg.ValidateOpened(tk) == nil {
			c := newCurriculum(cfg, len(tk.Levels()))
			unlockable, levels, steps = len(c.mix), len(c.lastEval), cfg.optimizerSteps()
			saved, t = &cfg, tk
		}
	}
	if _, ok := f.Metadata["state"]; ok {
		if _, err := readState(f, unlockable, levels, steps); err != nil {
			return err
		}
	}
	return checkLoadedItems(f, saved, t)
}

// check reports the first field of the state out of its range, by its JSON
// name and value; unlockable is the number of levels the curriculum can
// unlock, levels the number the environment has.
func (st *trainState) check(unlockable, levels, stepsPerUpdate int) error {
	k := stepsPerUpdate
	if k == 0 && st.Update > 0 {
		k = max(1, st.AdamStep/st.Update)
	}
	switch {
	case len(st.LastSolve) != levels || len(st.LastReward) != levels || len(st.LastEpisodes) != levels:
		return fmt.Errorf("the last evaluation has %d, %d and %d entries, want %d (one per level)",
			len(st.LastSolve), len(st.LastReward), len(st.LastEpisodes), levels)
	case st.Update < 0:
		return fmt.Errorf("update %d is negative", st.Update)
	case st.AdamStep < 0:
		return fmt.Errorf("adam_step %d is negative", st.AdamStep)
	case st.AdamStep != st.Update*k:
		// Every update takes the same Adam steps, one but with PPO (a failed
		// one is not applied, and -load restarts both at 0): a mismatch is a
		// damaged file.
		return fmt.Errorf("adam_step %d disagrees with update %d (every update takes %s)", st.AdamStep, st.Update, adamSteps(k))
	case st.Unlocked < 1 || st.Unlocked > unlockable:
		return fmt.Errorf("unlocked %d is out of range 1..%d", st.Unlocked, unlockable)
	case st.SolvedStreak < 0:
		return fmt.Errorf("solved_streak %d is negative", st.SolvedStreak)
	case st.Confirmations < 0:
		return fmt.Errorf("confirmations %d is negative", st.Confirmations)
	}
	for s := range st.LastSolve {
		if r := st.LastSolve[s]; !(r >= 0 && r <= 1) {
			return fmt.Errorf("last_solve_rate[%d] %v is out of range 0..1", s, r)
		}
		if r := st.LastReward[s]; math.IsNaN(r) || math.IsInf(r, 0) {
			return fmt.Errorf("last_mean_reward[%d] %v is not a finite number", s, r)
		}
		if n := st.LastEpisodes[s]; n < 0 {
			return fmt.Errorf("last_episodes[%d] %d is negative", s, n)
		}
	}
	return nil
}

// decodeStrict unmarshals the JSON object raw into v, a pointer to a struct
// whose fields all have json names, refusing what json.Unmarshal lets
// through: a key that is not exactly one of the struct's names (Unmarshal
// matches case-insensitively and ignores unknown keys), a duplicate key
// (Unmarshal keeps the last), a missing key (Unmarshal leaves the zero
// value), an array of another length than the struct's fixed-size array
// (Unmarshal pads with zeros or drops the rest), and data after the object.
func decodeStrict(raw string, v any, legacy, added map[string]bool) error {
	tmpl, err := json.Marshal(v)
	if err != nil {
		return err
	}
	want, err := objectFields(tmpl)
	if err != nil {
		return err
	}
	got, err := objectFields([]byte(raw))
	if err != nil {
		return err
	}
	template := make(map[string]json.RawMessage, len(want))
	for _, kv := range want {
		template[kv.Key] = kv.Value
	}
	seen := make(map[string]bool, len(got))
	kept := got[:0]
	for _, kv := range got {
		if legacy[kv.Key] {
			continue
		}
		kept = append(kept, kv)
		tv, ok := template[kv.Key]
		if !ok && !added[kv.Key] { // an added key the template omits (omitempty) is still known
			return fmt.Errorf("unknown field %q", kv.Key)
		}
		if n := arrayLen(tv); n >= 0 {
			if m := arrayLen(kv.Value); m >= 0 && m != n {
				return fmt.Errorf("field %s has %d elements, want %d", kv.Key, m, n)
			}
		}
		seen[kv.Key] = true
	}
	for _, kv := range want {
		if !seen[kv.Key] && !added[kv.Key] {
			return fmt.Errorf("no field %s", kv.Key)
		}
	}
	var obj strings.Builder // the object without its legacy keys
	obj.WriteByte('{')
	for i, kv := range kept {
		if i > 0 {
			obj.WriteByte(',')
		}
		k, _ := json.Marshal(kv.Key)
		obj.Write(k)
		obj.WriteByte(':')
		obj.Write(kv.Value)
	}
	obj.WriteByte('}')
	dec := json.NewDecoder(strings.NewReader(obj.String()))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// addedConfigKeys came after the first checkpoints: missing, they keep the
// value v held before decoding (the seed task, its default spec, the entropy
// schedule over all the updates, the bag: "context" is omitted when empty).
// Every field written only when set (omitempty) is one
// (TestEveryOmittedConfigKeyReadsBack).
var addedConfigKeys = map[string]bool{"task": true, "task_spec": true, "entropy_updates": true, "context": true,
	"replay": true, "replay_coef": true, "item_focus": true, "stop_from": true, "estimator": true, "group": true,
	"ppo_epochs": true, "ppo_minibatches": true, "clip_coef": true, "gae_lambda": true, "gamma": true, "no_clip_vloss": true, "no_norm_adv": true}

// legacyConfigKeys were part of the config in earlier checkpoints: the
// command-line state that is not (the device, the report path, quiet
// output), read and ignored; and the calc task's options before tasks had
// specs (levels, partial_credit), which mapCalcOptions turns into its spec.
// So those checkpoints still load.
var legacyConfigKeys = map[string]bool{"device": true, "report": true, "quiet": true, "levels": true, "partial_credit": true}

// mapCalcOptions turns the calc options of a config from before task specs
// (its "levels" and "partial_credit" keys) into cfg's TaskSpec, through the
// calc task's task.SpecEditor, exactly: the partial credit's float64 is
// written in a form that parses back to the same bits, so the run resumes
// bit-identically. As before, they apply to the calc task only, and a
// config has either them or a task_spec.
func mapCalcOptions(raw string, cfg *Config) error {
	fields, err := objectFields([]byte(raw))
	if err != nil {
		return err
	}
	var levels string
	var credit float64
	var hasOld, hasSpec bool
	for _, kv := range fields {
		switch kv.Key {
		case "levels":
			hasOld = true
			if err := json.Unmarshal(kv.Value, &levels); err != nil {
				return fmt.Errorf("field levels: %v", err)
			}
		case "partial_credit":
			hasOld = true
			if err := json.Unmarshal(kv.Value, &credit); err != nil {
				return fmt.Errorf("field partial_credit: %v", err)
			}
		case "task_spec":
			hasSpec = true
		}
	}
	switch {
	case !hasOld:
		return nil
	case hasSpec:
		return fmt.Errorf("fields levels and partial_credit are the calc task's spec before task_spec: give one or the other")
	case cfg.Task != legacyCalc && levels != "":
		return fieldError("levels", "applies to the calc task (the %s task's levels are its own)", cfg.Task)
	case cfg.Task != legacyCalc && credit != 0:
		return fieldError("partial_credit", "applies to the calc task (the %s task's reward is its own)", cfg.Task)
	case cfg.Task == legacyCalc:
		ed := task.SpecEditorOf(legacyCalc)
		if ed == nil {
			return &task.UnknownError{Name: legacyCalc}
		}
		spec, err := ed.WithOption("", "levels", levels)
		if err != nil {
			return err
		}
		if credit != 0 || math.Signbit(credit) {
			if spec, err = ed.WithOption(spec, "partial_credit", strconv.FormatFloat(credit, 'g', -1, 64)); err != nil {
				return err
			}
		}
		cfg.TaskSpec = spec
	}
	return nil
}

// legacyCalc is the task whose options configs held as fields (levels,
// partial_credit) before tasks had specs.
const legacyCalc = "calc"

// objectFields splits a JSON object into its fields in order (see
// checkpoint.ObjectFields); an empty value is said to be one.
func objectFields(data []byte) ([]checkpoint.Field, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("empty, not a JSON object")
	}
	return checkpoint.ObjectFields(data, "field")
}

// hasField reports whether the JSON object raw has the key (raw has been
// decoded already, so it is a well-formed object).
func hasField(raw, key string) bool {
	fields, _ := objectFields([]byte(raw))
	for _, kv := range fields {
		if kv.Key == key {
			return true
		}
	}
	return false
}

// arrayLen is the number of elements of a JSON array, or -1 for another value.
func arrayLen(raw json.RawMessage) int {
	var a []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &a) != nil {
		return -1
	}
	return len(a)
}

// ShapeError is a checkpoint tensor whose shape is not this model's: the
// file holds a model of another size (Trainer.Restore, Trainer.LoadWeights).
type ShapeError = enginekit.ShapeError
