package trainer

import (
	"fmt"
	"io"
	"time"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/kernels"
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

// EvalPoint is one periodic evaluation.
type EvalPoint struct {
	Update      int       `json:"update"`
	Stage       int       `json:"stage"`
	TrainReward float64   `json:"train_reward"`
	TrainSolve  float64   `json:"train_solve_rate"`
	Loss        float64   `json:"loss"`
	MeanReward  []float64 `json:"eval_mean_reward"`
	SolveRate   []float64 `json:"eval_solve_rate"`
}

// Run trains with cfg and prints progress to out (nothing when cfg.Quiet,
// except the final lines). It returns the report even when training stops
// on an error, with what was done until then.
func Run(cfg Config, out io.Writer) (*Report, error) {
	start := time.Now()
	t, err := New(cfg)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	rep := &Report{Config: cfg, Backend: kernels.Backend()}
	if !cfg.Quiet {
		fmt.Fprintf(out, "simdrl: recipe %s, seed %d, %d updates of %d episodes, curriculum %v, backend %s\n",
			cfg.Recipe, cfg.Seed, cfg.Updates, cfg.Batch, cfg.Stages, rep.Backend)
		fmt.Fprintln(out, "Training…")
	}
	var trainTime time.Duration
	var runErr error
	solvedEvals := 0
	for u := 1; u <= cfg.Updates; u++ {
		t0 := time.Now()
		st, err := t.Update()
		trainTime += time.Since(t0)
		if err != nil {
			runErr = err
			break
		}
		if cfg.EvalEvery > 0 && u%cfg.EvalEvery == 0 {
			ev := t.EvaluateAll(cfg.EvalBatch, uint32(u))
			t.ObserveEval(ev)
			p := EvalPoint{Update: u, Stage: st.Stage, TrainReward: st.MeanReward, TrainSolve: st.SolveRate, Loss: st.Loss.Total}
			for _, e := range ev {
				p.MeanReward = append(p.MeanReward, e.MeanReward)
				p.SolveRate = append(p.SolveRate, e.SolveRate)
			}
			rep.Evaluations = append(rep.Evaluations, p)
			solvedEvals++
			for _, s := range t.mix { // the stages this run trains
				if cfg.StopAt == 0 || ev[s].SolveRate < cfg.StopAt {
					solvedEvals = 0
				}
			}
			if !cfg.Quiet {
				fmt.Fprintf(out, "ep=%02d stage=%s acc=%.3f | eval T0=%.3f T1=%.3f T2=%.3f loss=%.3f | solved T0=%.3f T1=%.3f T2=%.3f\n",
					u, t.Training(st), st.MeanReward, p.MeanReward[0], p.MeanReward[1], p.MeanReward[2], st.Loss.Total,
					p.SolveRate[0], p.SolveRate[1], p.SolveRate[2])
			}
			if solvedEvals >= 2 {
				if !cfg.Quiet {
					fmt.Fprintf(out, "every trained stage solved at ≥ %.3f in two evaluations in a row: stopping after update %d\n", cfg.StopAt, u)
				}
				break
			}
		}
	}
	rep.Updates = t.Updates()
	rep.TrainSeconds = trainTime.Seconds()
	if rep.TrainSeconds > 0 {
		rep.UpdatesPerSecond = float64(rep.Updates) / rep.TrainSeconds
		rep.EnvStepsPerSecond = float64(rep.Updates*cfg.Batch*cfg.Steps) / rep.TrainSeconds
	}
	if runErr == nil {
		for s := 0; s < env.NumStages && cfg.Explain > 0; s++ {
			if !cfg.Quiet {
				fmt.Fprintf(out, "\nStage %d samples:\n", s)
			}
			for i := 0; i < cfg.Explain; i++ {
				ex := t.Explain(s, i)
				rep.Explanations = append(rep.Explanations, ex)
				if !cfg.Quiet {
					fmt.Fprintln(out, ex.String())
				}
			}
		}
		if cfg.FinalEpisodes > 0 {
			rep.FinalByStage = t.FinalEvaluation(cfg.FinalEpisodes)
			rep.Final.Episodes = cfg.FinalEpisodes
			for _, e := range rep.FinalByStage {
				rep.Final.SolveRate = append(rep.Final.SolveRate, e.SolveRate)
				rep.Final.MeanReward = append(rep.Final.MeanReward, e.MeanReward)
			}
			f := rep.Final
			fmt.Fprintf(out, "\nFinal greedy accuracies → T0=%.3f, T1=%.3f, T2=%.3f (mean reward, %d episodes per stage)\n",
				f.MeanReward[0], f.MeanReward[1], f.MeanReward[2], cfg.FinalEpisodes)
			fmt.Fprintf(out, "Final greedy solve rates → T0=%.3f, T1=%.3f, T2=%.3f\n", f.SolveRate[0], f.SolveRate[1], f.SolveRate[2])
		}
	}
	rep.ParamSHA256 = t.ParamSHA256()
	rep.WallSeconds = time.Since(start).Seconds()
	if !cfg.Quiet {
		fmt.Fprintf(out, "%d updates in %.2fs of training (%.1f updates/s, %.3g env steps/s), %.2fs in all; params sha256 %s\n",
			rep.Updates, rep.TrainSeconds, rep.UpdatesPerSecond, rep.EnvStepsPerSecond, rep.WallSeconds, rep.ParamSHA256[:16])
	}
	return rep, runErr
}
