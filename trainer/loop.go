package trainer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
)

// Options are what a command adds around training; the zero value trains
// and reports, nothing more.
type Options struct {
	// Quiet prints only the final lines.
	Quiet bool
	// Save is called every SaveEvery updates (0: never) and at the end,
	// interrupted or not, but never after a failed update.
	Save      func() error
	SaveEvery int
	// Metrics receives one JSON line per evaluation.
	Metrics io.Writer
	// Interrupt, once closed, ends training: the update under way stops at
	// the engine's next boundary and is not applied (Engine.SetInterrupt),
	// the last completed one is saved, and the explanations and the final
	// evaluation stop too.
	Interrupt <-chan struct{}
	// Progress, when set, receives a live status line (for a terminal: the
	// command gives stderr when it is one), redrawn after every update: a
	// bar, the update, the rate, the time left and the latest solve rates.
	// It is erased before each evaluation's lines and at the end.
	Progress io.Writer
	// Evaluated, when set, is called with each periodic evaluation, after
	// Metrics; trained is false for an evaluation that an interrupt cut
	// short, redone on resume (it has no update's statistics). An error
	// ends the run.
	Evaluated func(p EvalPoint, trained bool) error
	// EvalOnly trains nothing: the explanations and the final evaluation of
	// the model as it is (-eval-only), in a report of its hash and updates.
	EvalOnly bool
	// Exhaustive bounds the exhaustive evaluation that follows the final one
	// for a task that lists its instances (task.Enumerator): every instance
	// of each level and split with at most this many is played greedily
	// (-exhaustive). 0 means MaxExhaustive, a negative number none, and more
	// than MaxExhaustive is MaxExhaustive. An evaluation option: the
	// checkpoint's config does not hold it.
	Exhaustive int
}

// ErrInterrupted is returned when Options.Interrupt stopped the run.
var ErrInterrupted = errors.New("interrupted")

// Drive runs the training loop on tr: updates until the configured count or
// the curriculum's stop criterion (a periodic evaluation at cfg.StopAt, then
// a confirming one; confirm.go), periodic evaluations, checkpoints through
// opt.Save, then explanations and the final evaluation (with opt.EvalOnly,
// only those). It closes tr's engine. A panic in the task's code is
// returned as an error that names the task (task.PanicError).
func Drive(tr *Trainer, out io.Writer, opt Options) (rep *Report, err error) {
	defer recoverTask(tr.task, &err)
	return drive(tr, out, opt)
}

func drive(tr *Trainer, out io.Writer, opt Options) (*Report, error) {
	start := time.Now()
	cfg, cur, e := tr.cfg, tr.cur, tr.e
	defer e.Close()
	e.SetInterrupt(opt.Interrupt)
	if opt.EvalOnly {
		return evaluateOnly(tr, out, opt, start)
	}
	rep := &Report{Config: cfg, Backend: e.Backend(), Levels: levelNames(tr.task)}
	if !opt.Quiet {
		from := ""
		if tr.updates > 0 {
			from = fmt.Sprintf(", resuming after update %d", tr.updates)
		}
		fmt.Fprintf(out, "simdrl: recipe %s, seed %d, %d updates of %d episodes, levels %v (%s), %s, backend %s%s\n",
			cfg.Recipe, cfg.Seed, cfg.Updates, cfg.Batch, cfg.TrainLevels, cfg.Curriculum, plural(cfg.Threads, "thread"), rep.Backend, from)
		if d := e.Describe(); d != "" {
			fmt.Fprintln(out, d)
		}
		fmt.Fprintln(out, "Training…")
	}
	var trainTime time.Duration
	var runErr error
	bar := newProgressBar(opt.Progress, opt.Quiet)
	done := 0
	saved := -1
	save := func() {
		if saved == tr.updates {
			return // already saved at this update
		}
		if opt.Save != nil && (runErr == nil || errors.Is(runErr, ErrInterrupted)) {
			if err := opt.Save(); err != nil {
				runErr = fmt.Errorf("saving after update %d: %w", tr.updates, err)
			}
			saved = tr.updates
		}
	}
	// evaluate runs update u's periodic evaluation, and its confirmation
	// when it nominates the run, and only then applies both to the
	// curriculum: an interrupt inside either leaves the curriculum as it was
	// and the evaluation pending, so that the checkpoint saved now redoes it
	// on resume (the same rounds: bit-identical to a run never interrupted).
	// st is the update's statistics, nil for a pending evaluation redone.
	evaluate := func(u int, st *UpdateStats, rate float64) error {
		cur.setPendingEval(true)
		ev, err := e.EvaluateAll(cfg.EvalBatch, uint32(u), task.HeldOut)
		if err != nil {
			return err
		}
		// What steers: the held-out evaluation, or for an Itemized task its
		// training items' (steerSplit).
		steer, split := ev, steerSplit(tr.task)
		if split != task.HeldOut {
			if steer, err = e.EvaluateAll(cfg.EvalBatch, uint32(u), split); err != nil {
				return err
			}
		}
		var cev []EvalResult
		var subsets [][]task.Tally
		if cur.nominates(u, steer) {
			if cev, err = e.EvaluateAll(ConfirmEpisodes, enginekit.ConfirmRound(u), split); err != nil {
				return err
			}
			if subsets, err = trainingSubsets(tr, cur.mix); err != nil {
				return err
			}
		}
		cur.observe(steer)
		var cf *Confirmation
		if cev != nil {
			c := cur.confirm(u, cev, subsets)
			cf = &c
			rep.Confirmations = append(rep.Confirmations, c)
		}
		cur.setPendingEval(false)
		p := EvalPoint{Update: u, UpdatesPerSecond: rate, Confirmation: cf, EntropyCoef: cfg.EntropyAt(u)}
		level := -1
		if cfg.Curriculum != "mixed" {
			level = cfg.levelAt(u)
		}
		if st != nil {
			level, p.TrainReward, p.TrainSolve, p.Loss, p.GradNorm = st.Level, st.MeanReward, st.SolveRate, st.Loss, st.GradNorm
		}
		p.Level = cur.label(level)
		for _, r := range ev {
			p.MeanReward = append(p.MeanReward, r.MeanReward)
			p.SolveRate = append(p.SolveRate, r.SolveRate)
		}
		if split != task.HeldOut {
			for _, r := range steer {
				p.TrainingSplit = append(p.TrainingSplit, r.SolveRate)
			}
		}
		rep.Evaluations = append(rep.Evaluations, p)
		if opt.Metrics != nil {
			if err := json.NewEncoder(opt.Metrics).Encode(p); err != nil {
				return fmt.Errorf("writing metrics: %w", err)
			}
		}
		if opt.Evaluated != nil {
			if err := opt.Evaluated(p, st != nil); err != nil {
				return err
			}
		}
		bar.clear()
		bar.evaluated(p.SolveRate)
		if !opt.Quiet {
			train := fmt.Sprintf("acc=%.3f | eval %s loss=%.3f", p.TrainReward, perLevel(p.MeanReward, " "), p.Loss.Total)
			if st == nil {
				train = fmt.Sprintf("(the evaluation an interrupt cut short, redone) | eval %s", perLevel(p.MeanReward, " "))
			}
			solved := perLevel(p.SolveRate, " ")
			if split != task.HeldOut {
				solved = perLevelEval(ev, " ") + " | training " + perLevelEval(steer, " ")
			}
			fmt.Fprintf(out, "ep=%02d level=%s %s | solved %s\n", u, p.Level, train, solved)
			if cf != nil {
				fmt.Fprintln(out, formatConfirmation(*cf, cfg.StopAt))
			}
		}
		return nil
	}
	if cur.pendingEval && !interrupted(opt.Interrupt) {
		runErr = evaluate(tr.updates, nil, 0)
	}
	for runErr == nil && tr.updates < cfg.Updates && !cur.isSolved() {
		if interrupted(opt.Interrupt) {
			runErr = ErrInterrupted
			break
		}
		t0 := time.Now()
		st, err := tr.Update()
		trainTime += time.Since(t0)
		if err != nil {
			runErr = err
			break
		}
		done++
		rep.TrainReward = append(rep.TrainReward, st.MeanReward)
		u := tr.updates
		rate := float64(done) / trainTime.Seconds()
		bar.draw(u, cfg.Updates, rate)
		if cfg.EvalEvery > 0 && u%cfg.EvalEvery == 0 {
			if runErr = evaluate(u, &st, rate); runErr != nil {
				break
			}
		}
		if opt.SaveEvery > 0 && u%opt.SaveEvery == 0 {
			save()
			if runErr != nil {
				break
			}
		}
	}
	bar.clear()
	save()
	rep.Updates = tr.updates
	rep.TrainSeconds = trainTime.Seconds()
	if rep.TrainSeconds > 0 {
		rep.UpdatesPerSecond = float64(done) / rep.TrainSeconds
		rep.EnvStepsPerSecond = float64(done*cfg.Batch*cfg.Steps) / rep.TrainSeconds
	}
	if runErr == nil {
		runErr = conclude(tr, rep, out, opt)
	}
	if errors.Is(runErr, ErrInterrupted) {
		rep.Interrupted = true
		fmt.Fprintf(out, "interrupted: stopped after update %d of %d\n", tr.updates, cfg.Updates)
	}
	sum, err := tr.paramSHA256()
	if err != nil && runErr == nil {
		runErr = err
	}
	rep.ParamSHA256 = sum
	rep.WallSeconds = time.Since(start).Seconds()
	if !opt.Quiet && len(sum) >= 16 {
		fmt.Fprintf(out, "%d updates in %.2fs of training (%.1f updates/s, %.3g env steps/s), %.2fs in all; params sha256 %s\n",
			rep.Updates, rep.TrainSeconds, rep.UpdatesPerSecond, rep.EnvStepsPerSecond, rep.WallSeconds, sum[:16])
	}
	return rep, runErr
}

// evaluateOnly is Drive with Options.EvalOnly, which started at start: the
// report of the model as it is, its explanations and final evaluation.
func evaluateOnly(tr *Trainer, out io.Writer, opt Options, start time.Time) (*Report, error) {
	hash, err := tr.paramSHA256()
	rep := &Report{Config: tr.cfg, Updates: tr.updates, Backend: tr.e.Backend(), ParamSHA256: hash}
	if err == nil {
		err = conclude(tr, rep, out, opt)
	}
	if errors.Is(err, ErrInterrupted) {
		rep.Interrupted = true
	}
	rep.WallSeconds = time.Since(start).Seconds()
	return rep, err
}

// conclude explains cfg.Explain greedy samples per level and runs the final
// evaluation (and the exhaustive one, within opt.Exhaustive), printing both
// and filling rep (its Levels too).
func conclude(tr *Trainer, rep *Report, out io.Writer, opt Options) error {
	cfg, t, e, quiet := tr.cfg, tr.task, tr.e, opt.Quiet
	rep.Levels = levelNames(t)
	for s := 0; s < len(t.Levels()) && cfg.Explain > 0; s++ {
		if !quiet {
			fmt.Fprintf(out, "\n%s samples:\n", levelTitle(t, s))
		}
		exs, err := explain(tr, s, cfg.Explain)
		if err != nil {
			return err
		}
		for _, ex := range exs {
			rep.Explanations = append(rep.Explanations, ex)
			if !quiet {
				fmt.Fprintln(out, formatExplanation(ex))
			}
		}
	}
	if cfg.FinalEpisodes > 0 {
		ev, err := e.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.HeldOut)
		if err != nil {
			return err
		}
		rep.FinalByLevel = ev
		rep.Final = FinalReport{Episodes: cfg.FinalEpisodes}
		for _, r := range ev {
			rep.Final.SolveRate = append(rep.Final.SolveRate, r.SolveRate)
			rep.Final.MeanReward = append(rep.Final.MeanReward, r.MeanReward)
		}
		var train, transfer []EvalResult
		if t.HoldsOut() {
			var err error
			if train, err = e.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.Training); err != nil {
				return err
			}
			for _, r := range train {
				rep.Final.TrainSolveRate = append(rep.Final.TrainSolveRate, r.SolveRate)
			}
		}
		if hasTransfer(t) {
			var err error
			if transfer, err = e.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.Transfer); err != nil {
				return err
			}
			for _, r := range transfer {
				rep.Final.TransferSolveRate = append(rep.Final.TransferSolveRate, r.SolveRate)
			}
		}
		f := rep.Final
		fmt.Fprintf(out, "\nFinal greedy mean rewards → %s (%d episodes per level%s)\n",
			perLevel(f.MeanReward, ", "), cfg.FinalEpisodes, rewardNote(t))
		fmt.Fprintf(out, "Final greedy solve rates → %s%s\n", perLevelEval(ev, ", "), map[bool]string{true: " (held-out instances)"}[t.HoldsOut()])
		if t.HoldsOut() {
			fmt.Fprintf(out, "On training instances  → %s\n", perLevelEval(train, ", "))
		}
		if transfer != nil {
			fmt.Fprintf(out, "On transfer instances  → %s\n", perLevelEval(transfer, ", "))
		}
		limit := exhaustiveLimit(opt.Exhaustive)
		ex, err := exhaustive(tr, limit, out)
		if err != nil {
			return err
		}
		rep.Exhaustive = ex
		printExhaustive(out, t, ex, limit)
	}
	return nil
}

// rewardNote says why t's mean rewards can exceed 1, after the final ones:
// the seed task's shaped bonus, a calculator's partial credit, or nothing
// when only correct answers earn.
func rewardNote(t task.Task) string {
	if it, ok := t.(task.Interpreted); ok {
		if it.PartialCredit() > 0 {
			return "; partial credit for the inner values held can take them above 1"
		}
		return ""
	}
	return "; the shaped bonus can take them above 1"
}

// interrupted reports whether c is closed. It first yields: on one CPU the
// hand-offs between the loop and the pool's workers can keep the goroutines
// that deliver a signal (os/signal's and the command's) from running for a
// whole run, and an interrupt must take effect before the next update.
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

// levelNames are the task's levels by name, for reports.
func levelNames(t task.Task) []string {
	var names []string
	for _, l := range t.Levels() {
		names = append(names, l.Name)
	}
	return names
}

// levelTitle names level s for a heading: the task's own title
// (task.Titled: the seed task's "Level 1"), else "Level 3 (a*b+c*d)".
func levelTitle(t task.Task, s int) string {
	if tt, ok := t.(task.Titled); ok {
		return tt.LevelTitle(s)
	}
	return fmt.Sprintf("Level %d (%s)", s, t.Levels()[s].Name)
}

// perLevel prints one value per level: T0=1.000 T1=0.500 …
func perLevel(v []float64, sep string) string {
	parts := make([]string, len(v))
	for s, x := range v {
		parts[s] = fmt.Sprintf("T%d=%.3f", s, x)
	}
	return strings.Join(parts, sep)
}

// perLevelEval is perLevel of the solve rates, "T2=—" for a level that had
// nothing in the split (Episodes 0).
func perLevelEval(ev []EvalResult, sep string) string {
	parts := make([]string, len(ev))
	for s, r := range ev {
		parts[s] = fmt.Sprintf("T%d=%.3f", s, r.SolveRate)
		if r.Episodes == 0 {
			parts[s] = fmt.Sprintf("T%d=—", s)
		}
	}
	return strings.Join(parts, sep)
}

// steerSplit is the split whose evaluations steer the run (the focus
// weights, unlocking, the stop rule): the held-out one, as the seed's
// reference does, but for an Itemized task its training items, whose
// held-out items (the expr task's expressions) stay a test.
func steerSplit(t task.Task) task.Split {
	if _, ok := t.(task.Itemized); ok {
		return task.Training
	}
	return task.HeldOut
}

// hasTransfer reports whether some level of t has Transfer items.
func hasTransfer(t task.Task) bool {
	for lv := range t.Levels() {
		if task.Items(t, lv, task.Transfer) > 0 {
			return true
		}
	}
	return false
}

// plural counts a noun: "1 thread", "2 threads".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
