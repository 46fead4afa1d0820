package trainer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/simdrl/simdrl/env"
)

// Report is what a run writes with -report.
type Report struct {
	Config            Config                    `json:"config"`
	Backend           string                    `json:"backend"`
	Final             FinalReport               `json:"final"`
	Updates           int                       `json:"updates"`
	WallSeconds       float64                   `json:"wall_seconds"`
	TrainSeconds      float64                   `json:"train_seconds"`
	UpdatesPerSecond  float64                   `json:"updates_per_second"`
	EnvStepsPerSecond float64                   `json:"env_steps_per_second"`
	ParamSHA256       string                    `json:"param_sha256"`
	Interrupted       bool                      `json:"interrupted,omitempty"`
	Evaluations       []EvalPoint               `json:"evaluations"`
	FinalByStage      [env.NumStages]EvalResult `json:"final_by_stage"`
	Explanations      []Explanation             `json:"explanations,omitempty"`
}

// FinalReport holds the closing evaluation, one entry per stage.
type FinalReport struct {
	Episodes   int       `json:"episodes"`
	SolveRate  []float64 `json:"solve_rate"`
	MeanReward []float64 `json:"mean_reward"`
}

// EvalPoint is one periodic evaluation; -metrics writes one per line.
type EvalPoint struct {
	Update           int       `json:"update"`
	Stage            string    `json:"stage"`
	TrainReward      float64   `json:"train_reward"`
	TrainSolve       float64   `json:"train_solve_rate"`
	Loss             LossTerms `json:"loss"`
	GradNorm         float64   `json:"grad_norm"`
	MeanReward       []float64 `json:"eval_mean_reward"`
	SolveRate        []float64 `json:"eval_solve_rate"`
	UpdatesPerSecond float64   `json:"updates_per_second"`
}

// Options are what a command adds around training; the zero value trains
// and reports, nothing more.
type Options struct {
	// Trainer continues an existing CPU trainer (a resumed checkpoint)
	// instead of building a new one from the config (RunWith only).
	Trainer *Trainer
	// Save is called every SaveEvery updates (0: never) and at the end,
	// interrupted or not, but never after a failed update.
	Save      func() error
	SaveEvery int
	// Metrics receives one JSON line per evaluation.
	Metrics io.Writer
	// Interrupt, once closed, ends training after the current update.
	Interrupt <-chan struct{}
	// Progress redraws a live status line (for terminals).
	Progress bool
}

// ErrInterrupted is returned when Options.Interrupt stopped the run.
var ErrInterrupted = errors.New("interrupted")

// Engine is what the training loop drives: the CPU Trainer (through
// CPUEngine) or the GPU path. Both use the same Curriculum, random streams
// and evaluation rounds, so the loop, its output and its report are one.
type Engine interface {
	Config() Config
	Backend() string
	Describe() string // an extra line about the device, or ""
	Curriculum() *Curriculum
	Updates() int
	Update() (UpdateStats, error)
	EvaluateAll(episodes int, round uint32) ([env.NumStages]EvalResult, error)
	Explain(stage, count int) ([]Explanation, error)
	// GreedyPrograms plays the given tasks greedily: len(tasks)×Steps
	// tokens, episode-major.
	GreedyPrograms(tasks []env.Task) ([]int32, error)
	ParamSHA256() (string, error)
	Close()
}

// Run trains with cfg and prints progress to out (only the final lines when
// cfg.Quiet). It returns the report even when training stops early, with
// what was done until then.
func Run(cfg Config, out io.Writer) (*Report, error) { return RunWith(cfg, out, Options{}) }

// RunWith is Run on the CPU with options.
func RunWith(cfg Config, out io.Writer, opt Options) (*Report, error) {
	t := opt.Trainer
	if t == nil {
		var err error
		if t, err = New(cfg); err != nil {
			return nil, err
		}
	}
	return Drive(CPUEngine{t}, out, opt)
}

// Drive runs the training loop on e: updates until the configured count or
// the curriculum's stop criterion, periodic evaluations, checkpoints through
// opt.Save, then explanations and the final evaluation. It closes e.
func Drive(e Engine, out io.Writer, opt Options) (*Report, error) {
	start := time.Now()
	cfg, cur := e.Config(), e.Curriculum()
	defer e.Close()
	rep := &Report{Config: cfg, Backend: e.Backend()}
	if !cfg.Quiet {
		from := ""
		if e.Updates() > 0 {
			from = fmt.Sprintf(", resuming after update %d", e.Updates())
		}
		fmt.Fprintf(out, "simdrl: recipe %s, seed %d, %d updates of %d episodes, stages %v (%s), %s, backend %s%s\n",
			cfg.Recipe, cfg.Seed, cfg.Updates, cfg.Batch, cfg.Stages, cfg.Curriculum, plural(cfg.Threads, "thread"), rep.Backend, from)
		if d := e.Describe(); d != "" {
			fmt.Fprintln(out, d)
		}
		fmt.Fprintln(out, "Training…")
	}
	var trainTime time.Duration
	var runErr error
	done := 0
	saved := -1
	save := func() {
		if saved == e.Updates() {
			return // already saved at this update
		}
		if opt.Save != nil && (runErr == nil || errors.Is(runErr, ErrInterrupted)) {
			if err := opt.Save(); err != nil {
				runErr = fmt.Errorf("saving after update %d: %w", e.Updates(), err)
			}
			saved = e.Updates()
		}
	}
	for e.Updates() < cfg.Updates && !cur.Solved() {
		if interrupted(opt.Interrupt) {
			runErr = ErrInterrupted
			break
		}
		t0 := time.Now()
		st, err := e.Update()
		trainTime += time.Since(t0)
		if err != nil {
			runErr = err
			break
		}
		done++
		u := e.Updates()
		rate := float64(done) / trainTime.Seconds()
		if opt.Progress && !cfg.Quiet {
			eta := time.Duration(float64(cfg.Updates-u) / rate * float64(time.Second)).Round(time.Second)
			fmt.Fprintf(out, "\r\033[Kupdate %d/%d  %.1f updates/s  ETA %v (at most)", u, cfg.Updates, rate, eta)
		}
		if cfg.EvalEvery > 0 && u%cfg.EvalEvery == 0 {
			ev, err := e.EvaluateAll(cfg.EvalBatch, uint32(u))
			if err != nil {
				runErr = err
				break
			}
			cur.Observe(ev)
			p := EvalPoint{Update: u, Stage: cur.Label(st.Stage), TrainReward: st.MeanReward, TrainSolve: st.SolveRate,
				Loss: st.Loss, GradNorm: st.GradNorm, UpdatesPerSecond: rate}
			for _, r := range ev {
				p.MeanReward = append(p.MeanReward, r.MeanReward)
				p.SolveRate = append(p.SolveRate, r.SolveRate)
			}
			rep.Evaluations = append(rep.Evaluations, p)
			if opt.Metrics != nil {
				if err := json.NewEncoder(opt.Metrics).Encode(p); err != nil {
					runErr = fmt.Errorf("writing metrics: %w", err)
					break
				}
			}
			if opt.Progress && !cfg.Quiet {
				fmt.Fprint(out, "\r\033[K")
			}
			if !cfg.Quiet {
				fmt.Fprintf(out, "ep=%02d stage=%s acc=%.3f | eval T0=%.3f T1=%.3f T2=%.3f loss=%.3f | solved T0=%.3f T1=%.3f T2=%.3f\n",
					u, p.Stage, st.MeanReward, p.MeanReward[0], p.MeanReward[1], p.MeanReward[2], st.Loss.Total,
					p.SolveRate[0], p.SolveRate[1], p.SolveRate[2])
				if cur.Solved() {
					fmt.Fprintf(out, "every trained stage solved at ≥ %.3f in two evaluations in a row: stopping after update %d\n", cfg.StopAt, u)
				}
			}
		}
		if opt.SaveEvery > 0 && u%opt.SaveEvery == 0 {
			save()
			if runErr != nil {
				break
			}
		}
	}
	if opt.Progress && !cfg.Quiet {
		fmt.Fprint(out, "\r\033[K")
	}
	save()
	rep.Updates = e.Updates()
	rep.TrainSeconds = trainTime.Seconds()
	if rep.TrainSeconds > 0 {
		rep.UpdatesPerSecond = float64(done) / rep.TrainSeconds
		rep.EnvStepsPerSecond = float64(done*cfg.Batch*cfg.Steps) / rep.TrainSeconds
	}
	if runErr == nil {
		runErr = Conclude(e, rep, out)
	}
	if errors.Is(runErr, ErrInterrupted) {
		rep.Interrupted = true
		fmt.Fprintf(out, "interrupted: stopped after update %d of %d\n", e.Updates(), cfg.Updates)
	}
	sum, err := e.ParamSHA256()
	if err != nil && runErr == nil {
		runErr = err
	}
	rep.ParamSHA256 = sum
	rep.WallSeconds = time.Since(start).Seconds()
	if !cfg.Quiet && len(sum) >= 16 {
		fmt.Fprintf(out, "%d updates in %.2fs of training (%.1f updates/s, %.3g env steps/s), %.2fs in all; params sha256 %s\n",
			rep.Updates, rep.TrainSeconds, rep.UpdatesPerSecond, rep.EnvStepsPerSecond, rep.WallSeconds, sum[:16])
	}
	return rep, runErr
}

// Conclude explains cfg.Explain greedy samples per stage and runs the final
// evaluation, printing both and filling rep.
func Conclude(e Engine, rep *Report, out io.Writer) error {
	cfg := e.Config()
	for s := 0; s < env.NumStages && cfg.Explain > 0; s++ {
		if !cfg.Quiet {
			fmt.Fprintf(out, "\nStage %d samples:\n", s)
		}
		exs, err := e.Explain(s, cfg.Explain)
		if err != nil {
			return err
		}
		for _, ex := range exs {
			rep.Explanations = append(rep.Explanations, ex)
			if !cfg.Quiet {
				fmt.Fprintln(out, ex.String())
			}
		}
	}
	if cfg.FinalEpisodes > 0 {
		ev, err := e.EvaluateAll(cfg.FinalEpisodes, FinalRound)
		if err != nil {
			return err
		}
		rep.FinalByStage = ev
		rep.Final = FinalReport{Episodes: cfg.FinalEpisodes}
		for _, r := range ev {
			rep.Final.SolveRate = append(rep.Final.SolveRate, r.SolveRate)
			rep.Final.MeanReward = append(rep.Final.MeanReward, r.MeanReward)
		}
		f := rep.Final
		fmt.Fprintf(out, "\nFinal greedy mean rewards → T0=%.3f, T1=%.3f, T2=%.3f (%d episodes per stage; the shaped bonus can take them above 1)\n",
			f.MeanReward[0], f.MeanReward[1], f.MeanReward[2], cfg.FinalEpisodes)
		fmt.Fprintf(out, "Final greedy solve rates → T0=%.3f, T1=%.3f, T2=%.3f\n", f.SolveRate[0], f.SolveRate[1], f.SolveRate[2])
	}
	return nil
}

// interrupted reports whether c is closed. It first yields: on one CPU the
// hand-offs between the loop and the pool's workers can keep the goroutines
// that deliver a signal (os/signal's and the command's) from running for a
// whole run, and an interrupt must take effect after the current update.
func interrupted(c <-chan struct{}) bool {
	if c == nil {
		return false
	}
	runtime.Gosched()
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// CPUEngine drives a Trainer as an Engine.
type CPUEngine struct{ *Trainer }

// Describe adds nothing for the CPU.
func (CPUEngine) Describe() string { return "" }

// EvaluateAll evaluates every stage; the CPU cannot fail here.
func (c CPUEngine) EvaluateAll(episodes int, round uint32) ([env.NumStages]EvalResult, error) {
	return c.Trainer.EvaluateAll(episodes, round), nil
}

// Explain explains count greedy samples of stage.
func (c CPUEngine) Explain(stage, count int) ([]Explanation, error) {
	out := make([]Explanation, count)
	for i := range out {
		out[i] = c.Trainer.Explain(stage, i)
	}
	return out, nil
}

// GreedyPrograms plays the given tasks greedily; the CPU cannot fail here.
func (c CPUEngine) GreedyPrograms(tasks []env.Task) ([]int32, error) {
	return c.Trainer.GreedyPrograms(tasks), nil
}

// ParamSHA256 hashes the parameters.
func (c CPUEngine) ParamSHA256() (string, error) { return c.Trainer.ParamSHA256(), nil }

var _ Engine = CPUEngine{}

// plural counts a noun: "1 thread", "2 threads".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
