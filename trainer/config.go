package trainer

import (
	"fmt"
	"math"
)

// Config is everything a training run's arithmetic depends on, plus the
// thread count (which never changes the arithmetic). The flags of cmd/simdrl
// map onto it; where the run's outputs go and which engine runs it are the
// command's business, not the config's.
type Config struct {
	Threads       int     `json:"threads"`
	Seed          uint64  `json:"seed"`
	Recipe        string  `json:"recipe"`
	Updates       int     `json:"updates"`
	Batch         int     `json:"batch"`
	Stages        []int   `json:"stages"`
	LR            float64 `json:"lr"`
	Hidden        int     `json:"hidden"`
	Steps         int     `json:"steps"`
	EntropyCoef   float64 `json:"entropy_coef"`
	ValueCoef     float64 `json:"value_coef"`
	Clip          float64 `json:"clip"`
	EvalEvery     int     `json:"eval_every"`
	EvalBatch     int     `json:"eval_batch"`
	FinalEpisodes int     `json:"final_episodes"`
	Explain       int     `json:"explain"`
	Chunk         int     `json:"chunk"`

	// Recipe knobs beyond seed.py; their zero values are the seed's behaviour.
	Curriculum      string  `json:"curriculum"`        // "blocks": Stages as equal blocks (seed); "mixed": every batch mixes the (unlocked) stages listed in Stages
	UnlockAt        float64 `json:"unlock_at"`         // mixed: the next stage unlocks when the newest one's eval solve rate reaches this (0: all from the start)
	Baseline        string  `json:"baseline"`          // "sum": adv = R − Σ_t v_t (seed); "step": adv_t = R − v_t, each step's value regressed on R
	MaskAfterAnswer bool    `json:"mask_after_answer"` // leave the tokens after the first ANS (which change nothing) out of the loss
	EntropyFinal    float64 `json:"entropy_final"`     // entropy coefficient decays linearly to this over the run (< 0: constant)
	Focus           bool    `json:"focus"`             // mixed: draw stages in proportion to 0.1 + their last eval failure rate
	StopAt          float64 `json:"stop_at"`           // stop once two evaluations in a row solve every stage in Stages at this rate (0: never)
}

// ReferenceRecipe (recipe "seed") is the reference script's schedule and
// loss exactly: 60 updates of 192
// episodes, curriculum blocks [0,0,0,1,1,2] of 10 updates, Adam lr 3e-4,
// entropy 0.01, value 0.5, clip 1.0, greedy evaluation every 5 updates on 128
// episodes per stage, final evaluation on 1000, 5 explanations per stage.
func ReferenceRecipe() Config {
	return Config{
		Threads: 1, Seed: 0, Recipe: "seed",
		Updates: 60, Batch: 192, Stages: []int{0, 0, 0, 1, 1, 2},
		LR: 3e-4, Hidden: 96, Steps: 6, EntropyCoef: 0.01, ValueCoef: 0.5, Clip: 1.0,
		EvalEvery: 5, EvalBatch: 128, FinalEpisodes: 1000, Explain: 5, Chunk: 96,
		Curriculum: "blocks", Baseline: "sum", EntropyFinal: -1,
	}
}

// DefaultRecipe is the recipe `simdrl` runs without flags, the one that
// learns all three stages (README: "The default recipe"): every batch mixes
// the stages, weighted toward those the last evaluation found unsolved;
// REINFORCE with a per-step learned baseline over the tokens up to the first
// ANS; a strong entropy bonus that decays to zero; lr 1e-3; and it stops once
// two evaluations in a row solve every stage at ≥ 0.99.
func DefaultRecipe() Config {
	c := ReferenceRecipe()
	c.Recipe = "default"
	c.Stages = []int{0, 1, 2}
	c.Curriculum, c.Focus = "mixed", true
	c.Baseline, c.MaskAfterAnswer = "step", true
	c.Batch, c.Updates, c.LR = 192, 600, 1e-3
	c.EntropyCoef, c.EntropyFinal = 0.1, 0
	c.EvalEvery, c.EvalBatch, c.StopAt = 20, 200, 0.99
	return c
}

// Recipe returns the named recipe.
func Recipe(name string) (Config, error) {
	switch name {
	case "seed":
		return ReferenceRecipe(), nil
	case "default":
		return DefaultRecipe(), nil
	}
	return Config{}, fmt.Errorf("unknown recipe %q (want seed or default)", name)
}

// Upper bounds of the settings that size buffers or passes: far above any
// useful run, low enough that sizes computed from them cannot overflow.
const (
	MaxThreads  = 4096
	MaxUpdates  = 1 << 30
	MaxEpisodes = 1 << 24 // per update or evaluation round
	MaxExplain  = 10000
)

// Validate reports the first invalid setting as a *FieldError.
func (c *Config) Validate() error {
	switch {
	case c.Threads < 1 || c.Threads > MaxThreads:
		return fieldError("threads", "must be in 1..%d, got %d", MaxThreads, c.Threads)
	case c.Updates < 0 || c.Updates > MaxUpdates:
		return fieldError("updates", "must be in 0..%d, got %d", MaxUpdates, c.Updates)
	case c.Batch < 1 || c.Batch > MaxEpisodes:
		return fieldError("batch", "must be in 1..%d, got %d", MaxEpisodes, c.Batch)
	case len(c.Stages) == 0:
		return fieldError("stages", "must list at least one stage")
	case !(c.LR > 0) || c.LR > 10:
		return fieldError("lr", "must be in (0, 10], got %v", c.LR)
	case c.Hidden < 1 || c.Hidden > 4096:
		return fieldError("hidden", "must be in 1..4096, got %d", c.Hidden)
	case c.Steps < 1 || c.Steps > 64:
		return fieldError("steps", "must be in 1..64, got %d", c.Steps)
	case !(c.EntropyCoef >= 0) || c.EntropyCoef > 1e3:
		return fieldError("entropy_coef", "must be ≥ 0, got %v", c.EntropyCoef)
	case !(c.ValueCoef >= 0) || c.ValueCoef > 1e3:
		return fieldError("value_coef", "must be ≥ 0, got %v", c.ValueCoef)
	case !(c.Clip > 0) || c.Clip > 1e30:
		return fieldError("clip", "must be > 0, got %v", c.Clip)
	case c.EvalEvery < 0:
		return fieldError("eval_every", "must be ≥ 0, got %d", c.EvalEvery)
	case c.EvalBatch < 1 || c.EvalBatch > MaxEpisodes:
		return fieldError("eval_batch", "must be in 1..%d, got %d", MaxEpisodes, c.EvalBatch)
	case c.FinalEpisodes < 0 || c.FinalEpisodes > MaxEpisodes:
		return fieldError("final_episodes", "must be in 0..%d, got %d", MaxEpisodes, c.FinalEpisodes)
	case c.Explain < 0 || c.Explain > MaxExplain:
		return fieldError("explain", "must be in 0..%d, got %d", MaxExplain, c.Explain)
	case c.Chunk < 1:
		return fieldError("chunk", "must be ≥ 1, got %d", c.Chunk)
	case c.Curriculum != "blocks" && c.Curriculum != "mixed":
		return fieldError("curriculum", "must be blocks or mixed, got %q", c.Curriculum)
	case c.Baseline != "sum" && c.Baseline != "step":
		return fieldError("baseline", "must be sum or step, got %q", c.Baseline)
	case !(c.UnlockAt >= 0 && c.UnlockAt <= 1):
		return fieldError("unlock_at", "must be in [0, 1], got %v", c.UnlockAt)
	case !(c.StopAt >= 0 && c.StopAt <= 1):
		return fieldError("stop_at", "must be in [0, 1], got %v", c.StopAt)
	case math.IsNaN(c.EntropyFinal) || c.EntropyFinal > 1e3:
		return fieldError("entropy_final", "must be a number ≤ 1000 (< 0 keeps the coefficient constant), got %v", c.EntropyFinal)
	}
	for _, s := range c.Stages {
		if s < 0 || s >= Stages() {
			return fieldError("stages", "has an unknown stage %d (stages are 0..%d)", s, Stages()-1)
		}
	}
	return nil
}

// EntropyAt is the entropy coefficient for update u (1-based).
func (c *Config) EntropyAt(u int) float64 {
	if c.EntropyFinal < 0 || c.Updates <= 1 {
		return c.EntropyCoef
	}
	f := float64(u-1) / float64(c.Updates-1)
	return c.EntropyCoef + (c.EntropyFinal-c.EntropyCoef)*f
}

// StageAt is the curriculum's stage for update u (1-based): the stages list
// is a sequence of equal blocks of Updates/len(Stages) updates (at least 1),
// and the last stage holds after the list ends, as in seed.py.
func (c *Config) StageAt(u int) int {
	block := max(c.Updates/len(c.Stages), 1)
	i := min((u-1)/block, len(c.Stages)-1)
	return c.Stages[i]
}

// FieldError is an invalid setting: Field is the Config field's JSON name
// (the command line shows it as its flag).
type FieldError struct {
	Field, Problem string
}

func (e *FieldError) Error() string { return e.Field + " " + e.Problem }

func fieldError(field, format string, a ...any) error {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, a...)}
}
