//go:build cgo

package gpu

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/trainer"
)

// Run trains with cfg on the GPU as trainer.Run does on the CPU: the same
// initial parameters, tasks and sampling numbers, the same printed lines and
// the same report, with Backend "cuda". It returns the report even when
// training stops early, with what was done until then; it never falls back
// to the CPU.
func Run(cfg trainer.Config, out io.Writer) (*trainer.Report, error) {
	return RunWith(cfg, out, trainer.Options{})
}

// RunWith is Run with trainer.Options: Metrics, Interrupt and Progress are
// honoured; Trainer and Save (checkpoints) are not supported on the GPU yet.
func RunWith(cfg trainer.Config, out io.Writer, opt trainer.Options) (*trainer.Report, error) {
	start := time.Now()
	if opt.Trainer != nil || opt.Save != nil {
		return nil, errors.New("gpu: checkpoints (-save, -resume, -load) are not supported with -device cuda yet")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	l, err := gru.NewLayout(gru.Config{Vocab: env.Vocab, Hidden: cfg.Hidden, Stages: env.NumStages})
	if err != nil {
		return nil, err
	}
	d, err := Open()
	if err != nil {
		return nil, err
	}
	defer d.Close()
	params := make([]float32, l.Size)
	l.Init(params, cfg.Seed)
	var e *engine
	if err := d.do(func() error {
		var err error
		if e, err = newEngine(d, cfg, l); err != nil {
			return err
		}
		return e.setParams(params)
	}); err != nil {
		return nil, err
	}
	defer d.do(func() error { e.free(); return nil })

	cur := trainer.NewCurriculum(cfg)
	rep := &trainer.Report{Config: cfg, Backend: "cuda"}
	if !cfg.Quiet {
		fmt.Fprintf(out, "simdrl: recipe %s, seed %d, %d updates of %d episodes, stages %v (%s), %d threads, backend %s\n",
			cfg.Recipe, cfg.Seed, cfg.Updates, cfg.Batch, cfg.Stages, cfg.Curriculum, cfg.Threads, rep.Backend)
		fmt.Fprintln(out, d.Describe())
		fmt.Fprintln(out, "Training…")
	}
	evalAll := func(n int, round uint32) (ev [env.NumStages]trainer.EvalResult, err error) {
		err = d.do(func() error {
			for s := range ev {
				var err error
				if ev[s], err = e.evaluate(s, n, round); err != nil {
					return err
				}
			}
			return nil
		})
		return ev, err
	}
	var trainTime time.Duration
	var runErr error
	done := 0
	for u := 1; u <= cfg.Updates && !cur.Solved(); u++ {
		if interrupted(opt.Interrupt) {
			runErr = trainer.ErrInterrupted
			break
		}
		t0 := time.Now()
		var st trainer.UpdateStats
		err := d.do(func() error {
			var err error
			st, err = e.update(u, cur)
			return err
		})
		trainTime += time.Since(t0)
		if err != nil {
			runErr = err
			break
		}
		done = u
		rate := float64(done) / trainTime.Seconds()
		if opt.Progress && !cfg.Quiet {
			eta := time.Duration(float64(cfg.Updates-u) / rate * float64(time.Second)).Round(time.Second)
			fmt.Fprintf(out, "\r\033[Kupdate %d/%d  %.1f updates/s  ETA %v (at most)", u, cfg.Updates, rate, eta)
		}
		if cfg.EvalEvery > 0 && u%cfg.EvalEvery == 0 {
			ev, err := evalAll(cfg.EvalBatch, uint32(u))
			if err != nil {
				runErr = err
				break
			}
			cur.Observe(ev)
			p := trainer.EvalPoint{Update: u, Stage: cur.Label(st.Stage), TrainReward: st.MeanReward, TrainSolve: st.SolveRate,
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
	}
	if opt.Progress && !cfg.Quiet {
		fmt.Fprint(out, "\r\033[K")
	}
	rep.Updates = done
	rep.TrainSeconds = trainTime.Seconds()
	if rep.TrainSeconds > 0 {
		rep.UpdatesPerSecond = float64(done) / rep.TrainSeconds
		rep.EnvStepsPerSecond = float64(done*cfg.Batch*cfg.Steps) / rep.TrainSeconds
	}
	if runErr == nil {
		runErr = conclude(d, e, cfg, rep, out, evalAll)
	}
	if errors.Is(runErr, trainer.ErrInterrupted) {
		rep.Interrupted = true
		fmt.Fprintf(out, "interrupted: stopped after update %d of %d\n", done, cfg.Updates)
	}
	if err := d.do(func() error { return e.getParams(params) }); err != nil && runErr == nil {
		runErr = err
	}
	rep.ParamSHA256 = paramSHA256(params)
	rep.WallSeconds = time.Since(start).Seconds()
	if !cfg.Quiet {
		fmt.Fprintf(out, "%d updates in %.2fs of training (%.1f updates/s, %.3g env steps/s), %.2fs in all; params sha256 %s\n",
			rep.Updates, rep.TrainSeconds, rep.UpdatesPerSecond, rep.EnvStepsPerSecond, rep.WallSeconds, rep.ParamSHA256[:16])
	}
	return rep, runErr
}

// conclude is Trainer.Conclude: explanations, then the final evaluation.
func conclude(d *Device, e *engine, cfg trainer.Config, rep *trainer.Report, out io.Writer,
	evalAll func(int, uint32) ([env.NumStages]trainer.EvalResult, error)) error {
	for s := 0; s < env.NumStages && cfg.Explain > 0; s++ {
		if !cfg.Quiet {
			fmt.Fprintf(out, "\nStage %d samples:\n", s)
		}
		var exs []trainer.Explanation
		if err := d.do(func() error {
			var err error
			exs, err = e.explain(s, cfg.Explain)
			return err
		}); err != nil {
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
		ev, err := evalAll(cfg.FinalEpisodes, finalRound)
		if err != nil {
			return err
		}
		rep.FinalByStage = ev
		rep.Final = trainer.FinalReport{Episodes: cfg.FinalEpisodes}
		for _, r := range ev {
			rep.Final.SolveRate = append(rep.Final.SolveRate, r.SolveRate)
			rep.Final.MeanReward = append(rep.Final.MeanReward, r.MeanReward)
		}
		f := rep.Final
		fmt.Fprintf(out, "\nFinal greedy accuracies → T0=%.3f, T1=%.3f, T2=%.3f (mean reward, %d episodes per stage)\n",
			f.MeanReward[0], f.MeanReward[1], f.MeanReward[2], cfg.FinalEpisodes)
		fmt.Fprintf(out, "Final greedy solve rates → T0=%.3f, T1=%.3f, T2=%.3f\n", f.SolveRate[0], f.SolveRate[1], f.SolveRate[2])
	}
	return nil
}

func interrupted(c <-chan struct{}) bool {
	if c == nil {
		return false
	}
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// paramSHA256 is Trainer.ParamSHA256: little-endian float32 in layout order.
func paramSHA256(params []float32) string {
	h := sha256.New()
	var buf [4]byte
	for _, p := range params {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(p))
		h.Write(buf[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}
