package trainer

import "github.com/simdrl/simdrl/task"

// Report is what a run writes with -report.
type Report struct {
	Config            Config      `json:"config"`
	Device            string      `json:"device"` // the engine that ran it (the command's -device)
	Backend           string      `json:"backend"`
	Final             FinalReport `json:"final"`
	Updates           int         `json:"updates"`
	WallSeconds       float64     `json:"wall_seconds"`  // the whole run, evaluations included (an -eval-only run's too)
	TrainSeconds      float64     `json:"train_seconds"` // the updates alone, as the rates below: 0 when nothing trained (-eval-only)
	UpdatesPerSecond  float64     `json:"updates_per_second"`
	EnvStepsPerSecond float64     `json:"env_steps_per_second"`
	ParamSHA256       string      `json:"param_sha256"`
	Interrupted       bool        `json:"interrupted,omitempty"`
	// Error is what failed, for a run that failed (exit 1): a training
	// error, or an output's (*OutputError), whose run saved its last
	// completed update. Empty for a run that succeeded or was interrupted.
	Error  string   `json:"error,omitempty"`
	Levels []string `json:"levels"` // the task's levels by name
	// TrainReward, Evaluations and Confirmations are the whole run's, a
	// resumed run's too: its checkpoint carries those of the updates
	// before it (history.go; a checkpoint from before that carries none).
	TrainReward   []float64      `json:"train_reward"` // the batch's mean reward, every update
	Evaluations   []EvalPoint    `json:"evaluations"`
	Confirmations []Confirmation `json:"confirmations"`  // every confirming evaluation, in order; the last one Solved when the stop rule ended it
	FinalByLevel  []EvalResult   `json:"final_by_stage"` // by level; the key keeps the old word ("stage" in the JSON means level)
	// Exhaustive is every instance of every level played once, by split and
	// held-out subset, for a task that lists its instances (task.Enumerator).
	Exhaustive []task.LevelTally `json:"exhaustive,omitempty"`
	// Sampled is the final sampled evaluation (Options.EvalSamples): pass@1
	// and pass@k per level and split, and per held-out subset.
	Sampled      []SampledResult    `json:"sampled,omitempty"`
	Explanations []task.Explanation `json:"explanations,omitempty"`
}

// FinalReport holds the closing evaluation, one entry per level, on
// held-out instances; for a task that holds tuples out, also the solve rate
// on training instances. A level a split has no instance of is NaN (null in
// the JSON).
type FinalReport struct {
	Episodes       int   `json:"episodes"`
	SolveRate      rates `json:"solve_rate"`
	MeanReward     rates `json:"mean_reward"`
	TrainSolveRate rates `json:"train_solve_rate,omitempty"`
	// TransferSolveRate is an Itemized task's Transfer split (its held-out
	// pattern or size), when it has one; null for a level without.
	TransferSolveRate rates `json:"transfer_solve_rate,omitempty"`
}

// EvalPoint is one periodic evaluation; -metrics writes one per line.
type EvalPoint struct {
	Update      int       `json:"update"`
	Level       string    `json:"stage"` // the level trained, or the levels a mixed update played ("0,1"); the key keeps the old word
	TrainReward float64   `json:"train_reward"`
	TrainSolve  float64   `json:"train_solve_rate"`
	Loss        LossTerms `json:"loss"`
	GradNorm    float64   `json:"grad_norm"`
	// MeanReward and SolveRate are per level; a level the evaluation did
	// not play is NaN (null in the JSON), as in FinalReport.
	MeanReward rates `json:"eval_mean_reward"`
	SolveRate  rates `json:"eval_solve_rate"`
	// TrainingSplit is, for an Itemized task, the same evaluation on its
	// training items: what the curriculum and the stop rule read, so that
	// the held-out items stay a test.
	TrainingSplit    rates   `json:"eval_training_solve_rate,omitempty"`
	UpdatesPerSecond float64 `json:"updates_per_second"`
	// PassAt1 and PassAtK are the sampled evaluation's per level on the
	// same held-out instances (Options.EvalSamples), nil without one.
	PassAt1 rates `json:"eval_pass_at_1,omitempty"`
	PassAtK rates `json:"eval_pass_at_k,omitempty"`
	// EntropyCoef is the entropy coefficient the update used
	// (Config.EntropyAt).
	EntropyCoef float64 `json:"entropy_coef"`
	// Confirmation is the confirming evaluation this one nominated, if any.
	Confirmation *Confirmation `json:"confirmation,omitempty"`
	// Diagnostics are the update's, when its estimator computes them.
	Diagnostics *Diagnostics `json:"diagnostics,omitempty"`
}
