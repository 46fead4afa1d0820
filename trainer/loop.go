package trainer

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
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
	// interrupted or not, after an output's failure too (*OutputError), but
	// never after a failed update.
	Save      func() error
	SaveEvery int
	// Metrics receives one JSON line per evaluation.
	Metrics io.Writer
	// Interrupt, once closed, ends training: the update under way stops at
	// the engine's next boundary and is not applied (Engine.SetInterrupt),
	// the last completed one is saved, and the explanations and the final
	// and exhaustive evaluations stop too. A task's listing of instances
	// under way is not waited for: it ends on its own goroutine, unobserved.
	Interrupt <-chan struct{}
	// Progress, when set, receives a live status line (for a terminal: the
	// command gives stderr when it is one), redrawn after every update: a
	// bar, the update, the rate, the time left and the latest solve rates.
	// It is erased before each evaluation's lines and at the end.
	Progress io.Writer
	// ProgressWidth, when set, is the terminal's width in columns (0:
	// unknown), read before each status line is drawn: the line is cut to
	// one column less, so that it never wraps (a wrapped line leaves a stale
	// row at each redraw).
	ProgressWidth func() int
	// Evaluated, when set, is called with each periodic evaluation, after
	// Metrics; trained is false for an evaluation that an interrupt cut
	// short, redone on resume (it has no update's statistics). An error
	// ends the run as an output's failure (*OutputError): the update is
	// saved.
	Evaluated func(p EvalPoint, trained bool) error
	// Reporter, when set, is told of the run's events; unset, Drive plugs
	// in Console(tr, out, opt), the only reader of Quiet, Progress, Metrics
	// and Evaluated.
	Reporter *Reporter
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
	// EvalSamples, when positive, adds a sampled evaluation beside each
	// greedy one, periodic and final (sampled.go): every instance played
	// EvalSamples times, sampled at EvalTemperature (0: 1), and the
	// unbiased pass@1 and pass@EvalPassK (0: EvalSamples) per level
	// (EvalPoint.PassAt1, Report.Sampled). Evaluation options, as
	// Exhaustive: the checkpoint's config does not hold them.
	EvalSamples, EvalPassK int
	EvalTemperature        float64
}

// ErrInterrupted is returned when Options.Interrupt stopped the run.
var ErrInterrupted = errors.New("interrupted")

// Drive runs the training loop on tr: updates until the configured count or
// the curriculum's stop criterion (a periodic evaluation at cfg.StopAt, then
// a confirming one; confirm.go), periodic evaluations, checkpoints through
// opt.Save, then explanations and the final evaluation (with opt.EvalOnly,
// only those). It tells opt.Reporter of each step, or without one renders
// the run on out (the console). It closes tr's engine. A panic in the
// task's code is returned as an error that names the task
// (task.PanicError).
func Drive(tr *Trainer, out io.Writer, opt Options) (rep *Report, err error) {
	defer recoverTask(tr.task, &err)
	r := opt.Reporter
	if r == nil {
		r = Console(tr, out, opt)
	}
	l := &loop{tr: tr, opt: opt, r: r, start: time.Now(), saved: -1}
	defer tr.e.Close()
	if _, _, _, err := sampledOptions(opt); err != nil {
		return nil, err
	}
	tr.setInterrupt(opt.Interrupt)
	if opt.EvalOnly {
		rep, err = l.evaluateOnly()
	} else {
		rep, err = l.train()
	}
	if rep != nil && err != nil && !errors.Is(err, ErrInterrupted) {
		rep.Error = err.Error()
	}
	r.finished(rep)
	return rep, err
}

// loop is one Drive: the run's state between its steps.
type loop struct {
	tr        *Trainer
	opt       Options
	r         *Reporter
	rep       *Report
	start     time.Time
	trainTime time.Duration
	done      int   // updates applied by this Drive
	saved     int   // the update last saved, −1 before
	err       error // the run's error, ErrInterrupted included
}

// train is Drive without EvalOnly.
func (l *loop) train() (*Report, error) {
	tr, cfg := l.tr, l.tr.cfg
	l.rep = &Report{Config: cfg, Backend: tr.e.Backend(), Levels: levelNames(tr.task),
		TrainReward: slices.Clone(tr.past.TrainReward), Evaluations: slices.Clone(tr.past.Evaluations), Confirmations: slices.Clone(tr.past.Confirmations)}
	tr.running = l.rep // its checkpoints carry the history on
	l.r.started(cfg, l.rep.Backend, tr.e.Describe(), tr.updates)
	if tr.cur.pendingEval && !interrupted(l.opt.Interrupt) {
		l.err = l.evaluate(tr.updates, nil, 0)
	}
	for l.err == nil && tr.updates < cfg.Updates && !tr.cur.isSolved() {
		l.err = l.step()
	}
	l.r.trained(tr.updates)
	l.save()
	l.measure()
	if l.err == nil {
		l.err = conclude(tr, l.rep, l.r, l.opt)
	}
	l.rep.Interrupted = errors.Is(l.err, ErrInterrupted)
	sum, err := tr.paramSHA256()
	if err != nil && l.err == nil {
		l.err = err
	}
	l.rep.ParamSHA256 = sum
	l.rep.WallSeconds = time.Since(l.start).Seconds()
	return l.rep, l.err
}

// step runs the next update and what follows it: its evaluation and its
// checkpoint when they are due.
func (l *loop) step() error {
	if interrupted(l.opt.Interrupt) {
		return ErrInterrupted
	}
	t0 := time.Now()
	st, err := l.tr.Update()
	l.trainTime += time.Since(t0)
	if err != nil {
		return err
	}
	l.done++
	l.rep.TrainReward = append(l.rep.TrainReward, st.MeanReward)
	u, cfg := l.tr.updates, l.tr.cfg
	rate := float64(l.done) / l.trainTime.Seconds()
	l.r.updated(u, rate, st)
	if cfg.EvalEvery > 0 && u%cfg.EvalEvery == 0 {
		if err := l.evaluate(u, &st, rate); err != nil {
			return err
		}
	}
	if l.opt.SaveEvery > 0 && u%l.opt.SaveEvery == 0 {
		l.save()
		return l.err
	}
	return nil
}

// save calls Options.Save once per update, and never after a failed one:
// an interrupt or an output's failure leaves the model sound, a training
// error does not.
func (l *loop) save() {
	if l.saved == l.tr.updates {
		return // already saved at this update
	}
	sound := l.err == nil || errors.Is(l.err, ErrInterrupted) || isOutputError(l.err)
	if l.opt.Save != nil && sound {
		if err := l.opt.Save(); err != nil && l.err != nil && !errors.Is(l.err, ErrInterrupted) {
			l.err = fmt.Errorf("%w, and saving after update %d failed too: %v", l.err, l.tr.updates, err)
		} else if err != nil {
			l.err = fmt.Errorf("saving after update %d: %w", l.tr.updates, err)
		}
		l.saved = l.tr.updates
	}
}

// measure puts the run's updates and their rates in the report.
func (l *loop) measure() {
	rep, cfg := l.rep, l.tr.cfg
	rep.Updates = l.tr.updates
	rep.TrainSeconds = l.trainTime.Seconds()
	if rep.TrainSeconds > 0 {
		rep.UpdatesPerSecond = float64(l.done) / rep.TrainSeconds
		rep.EnvStepsPerSecond = float64(l.done*cfg.Batch*cfg.Steps) / rep.TrainSeconds
	}
}

// evaluate runs update u's periodic evaluation, and its confirmation
// when it nominates the run, and only then applies both to the
// curriculum: an interrupt inside either leaves the curriculum as it was
// and the evaluation pending, so that the checkpoint saved now redoes it
// on resume (the same rounds: bit-identical to a run never interrupted).
// st is the update's statistics, nil for a pending evaluation redone.
func (l *loop) evaluate(u int, st *UpdateStats, rate float64) error {
	cur := l.tr.cur
	cur.setPendingEval(true)
	passAt1, passAtK, err := l.sampledPoint(u) // sampled.go; before the greedy ones, which move the curriculum
	if err != nil {
		return err
	}
	ev, steer, cf, err := l.evaluations(u)
	if err != nil {
		return err
	}
	cur.setPendingEval(false)
	p := l.point(u, st, rate, ev, steer, cf)
	p.PassAt1, p.PassAtK = passAt1, passAtK
	l.rep.Evaluations = append(l.rep.Evaluations, p)
	var training []EvalResult
	if steerSplit(l.tr.task) != task.HeldOut {
		training = steer
	}
	return outputError("the Evaluated hook", l.r.evaluated(p, ev, training, st != nil))
}

// evaluations plays update u's held-out evaluation, the one that steers
// (steerSplit: for an Itemized task its training items', else the same)
// and, when that nominates the run, the confirmation, which it applies to
// the curriculum (cf: nil without one).
func (l *loop) evaluations(u int) (ev, steer []EvalResult, cf *Confirmation, err error) {
	tr, cfg, cur := l.tr, l.tr.cfg, l.tr.cur
	if ev, err = tr.e.EvaluateAll(cfg.EvalBatch, uint32(u), task.HeldOut); err != nil {
		return nil, nil, nil, err
	}
	steer, split := ev, steerSplit(tr.task)
	if split != task.HeldOut {
		if steer, err = tr.e.EvaluateAll(cfg.EvalBatch, uint32(u), split); err != nil {
			return nil, nil, nil, err
		}
	}
	var cev []EvalResult
	var subsets [][]task.Tally
	if cur.nominates(u, steer) {
		if cev, err = tr.e.EvaluateAll(cur.nextConfirmTest().Episodes, enginekit.ConfirmRound(u), split); err != nil {
			return nil, nil, nil, err
		}
		if subsets, err = trainingSubsets(tr, cur.mix); err != nil {
			return nil, nil, nil, err
		}
	}
	cur.observe(steer)
	if cev != nil {
		c := cur.confirm(u, splitName(tr.task, split), cev, subsets)
		cf = &c
		l.rep.Confirmations = append(l.rep.Confirmations, c)
	}
	return ev, steer, cf, nil
}

// point is update u's EvalPoint.
func (l *loop) point(u int, st *UpdateStats, rate float64, ev, steer []EvalResult, cf *Confirmation) EvalPoint {
	cfg := l.tr.cfg
	p := EvalPoint{Update: u, UpdatesPerSecond: rate, Confirmation: cf, EntropyCoef: cfg.EntropyAt(u)}
	level := -1
	if cfg.Curriculum != "mixed" {
		level = cfg.levelAt(u)
	}
	if st != nil {
		level, p.TrainReward, p.TrainSolve, p.Loss, p.GradNorm = st.Level, st.MeanReward, st.SolveRate, st.Loss, st.GradNorm
		if st.Diagnostics != nil { // the engine's, which its next update overwrites
			d := *st.Diagnostics
			p.Diagnostics = &d
		}
	}
	p.Level = l.tr.cur.label(level)
	p.MeanReward, p.SolveRate = ratesOf(ev, meanReward), ratesOf(ev, solveRate)
	if steerSplit(l.tr.task) != task.HeldOut {
		p.TrainingSplit = ratesOf(steer, solveRate)
	}
	return p
}

// evaluateOnly is Drive with Options.EvalOnly: the report of the model as
// it is, its explanations and final evaluation.
func (l *loop) evaluateOnly() (*Report, error) {
	tr := l.tr
	hash, err := tr.paramSHA256()
	rep := &Report{Config: tr.cfg, Updates: tr.updates, Backend: tr.e.Backend(), ParamSHA256: hash}
	if err == nil {
		err = conclude(tr, rep, l.r, l.opt)
	}
	if errors.Is(err, ErrInterrupted) {
		rep.Interrupted = true
	}
	rep.WallSeconds = time.Since(l.start).Seconds()
	return rep, err
}

// conclude explains cfg.Explain greedy samples per level and runs the final
// evaluation (and the exhaustive one, within opt.Exhaustive), telling r of
// each and filling rep (its Levels too).
func conclude(tr *Trainer, rep *Report, r *Reporter, opt Options) error {
	rep.Levels = levelNames(tr.task)
	if err := explainLevels(tr, rep, r); err != nil {
		return err
	}
	if tr.cfg.FinalEpisodes == 0 {
		return nil
	}
	if err := finalEvaluation(tr, rep, r); err != nil {
		return err
	}
	if err := finalSampled(tr, rep, r, opt); err != nil { // sampled.go
		return err
	}
	limit := exhaustiveLimit(opt.Exhaustive)
	ex, err := exhaustive(tr, limit, r)
	if err != nil {
		return err
	}
	rep.Exhaustive = ex
	if len(ex) > 0 {
		r.enumerated(ex, limit)
	}
	return nil
}

// explainLevels explains cfg.Explain greedy samples of every level.
func explainLevels(tr *Trainer, rep *Report, r *Reporter) error {
	for s := 0; s < len(tr.task.Levels()) && tr.cfg.Explain > 0; s++ {
		r.explaining(s)
		exs, err := explain(tr, s, tr.cfg.Explain)
		if err != nil {
			return err
		}
		for _, ex := range exs {
			rep.Explanations = append(rep.Explanations, ex)
			r.explained(s, ex)
		}
	}
	return nil
}

// finalEvaluation plays cfg.FinalEpisodes greedy episodes of every level,
// held out, and on training and transfer instances where the task has them.
func finalEvaluation(tr *Trainer, rep *Report, r *Reporter) error {
	cfg, t, e := tr.cfg, tr.task, tr.e
	ev, err := e.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.HeldOut)
	if err != nil {
		return err
	}
	rep.FinalByLevel = ev
	rep.Final = FinalReport{Episodes: cfg.FinalEpisodes, SolveRate: ratesOf(ev, solveRate), MeanReward: ratesOf(ev, meanReward)}
	var train, transfer []EvalResult
	if t.HoldsOut() {
		if train, err = e.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.Training); err != nil {
			return err
		}
		rep.Final.TrainSolveRate = ratesOf(train, solveRate)
	}
	if hasTransfer(t) {
		if transfer, err = e.EvaluateAll(cfg.FinalEpisodes, enginekit.FinalRound, task.Transfer); err != nil {
			return err
		}
		rep.Final.TransferSolveRate = ratesOf(transfer, solveRate)
	}
	r.finalEvaluated(ev, train, transfer)
	return nil
}

func solveRate(r EvalResult) float64  { return r.SolveRate }
func meanReward(r EvalResult) float64 { return r.MeanReward }

// rewardNote says why t's mean rewards can exceed 1, after the final ones,
// as t says it (task.RewardNoter): nothing for a task that does not.
func rewardNote(t task.Task) string {
	if n, ok := t.(task.RewardNoter); ok && n.RewardNote() != "" {
		return "; " + n.RewardNote()
	}
	return ""
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

// perLevelEval is perLevel of the solve rates, "T2=—" for a level that had
// nothing in the split (Episodes 0).
func perLevelEval(ev []EvalResult, sep string) string {
	return perLevelPlayed(ev, sep, func(r EvalResult) float64 { return r.SolveRate })
}

// perLevelMean is perLevelEval of the mean rewards.
func perLevelMean(ev []EvalResult, sep string) string {
	return perLevelPlayed(ev, sep, func(r EvalResult) float64 { return r.MeanReward })
}

// perLevelPlayed prints value of each level's result, T0=1.000 T1=0.500 …,
// "T2=—" for a level with no episodes: its zeros were never measured.
func perLevelPlayed(ev []EvalResult, sep string, value func(EvalResult) float64) string {
	parts := make([]string, len(ev))
	for s, r := range ev {
		parts[s] = fmt.Sprintf("T%d=%.3f", s, value(r))
		if r.Episodes == 0 {
			parts[s] = fmt.Sprintf("T%d=—", s)
		}
	}
	return strings.Join(parts, sep)
}

// steerSplit is the split whose evaluations steer the run (the focus
// weights, unlocking, the stop rule): the held-out one, as the seed's
// reference does, but for an Itemized task its training items, whose
// held-out items (the expr task's expressions) stay a test, and a
// task.TrainingSteered task's training split.
func steerSplit(t task.Task) task.Split {
	if _, ok := t.(task.Itemized); ok {
		return task.Training
	}
	if s, ok := t.(task.TrainingSteered); ok && s.SteersOnTraining() {
		return task.Training
	}
	return task.HeldOut
}

// splitName names split for the stop rule's lines and report: "" for a
// task that holds nothing out, whose splits are the same draws.
func splitName(t task.Task, split task.Split) string {
	if !t.HoldsOut() {
		return ""
	}
	return split.String()
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
