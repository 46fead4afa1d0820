package trainer

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/simdrl/simdrl/task"
)

// console is the Reporter Drive uses when Options gives none: the command's
// lines on out (only the final ones with Quiet), the live status line on
// Options.Progress, a JSON line per evaluation on Options.Metrics and
// Options.Evaluated's callback.
type console struct {
	out   io.Writer
	opt   Options
	t     task.Task
	cfg   Config
	bar   *progressBar
	train bool // Started: a training run, not EvalOnly's
	cur   *curriculum
}

// Console is the Reporter that renders tr's run on out as the command
// does: a line per periodic evaluation (none with opt.Quiet), the status
// line on opt.Progress, one JSON line per evaluation on opt.Metrics,
// opt.Evaluated after each, then the explanations, the final lines and the
// speed. Drive plugs it in when its Options name no Reporter; a program may
// wrap its hooks with its own.
func Console(tr *Trainer, out io.Writer, opt Options) *Reporter {
	c := &console{out: out, opt: opt, t: tr.task, cfg: tr.cfg, bar: newProgressBar(opt.Progress, opt.ProgressWidth, opt.Quiet), cur: tr.cur}
	return &Reporter{
		Started:          c.started,
		Updated:          func(u int, rate float64, _ UpdateStats) { c.bar.draw(u, c.cfg.Updates, rate) },
		Evaluated:        c.evaluated,
		Trained:          func(int) { c.bar.clear() },
		Explaining:       c.explaining,
		Explained:        c.explained,
		FinalEvaluated:   c.finalEvaluated,
		Enumerating:      func(plan string) { fmt.Fprintln(c.out, plan) },
		SampledEvaluated: func(rs []SampledResult) { printSampled(c.out, rs) },
		Enumerated:       func(ls []task.LevelTally, limit int) { printExhaustive(c.out, c.t, ls, limit) },
		Finished:         c.finished,
	}
}

func (c *console) started(cfg Config, backend, describe string, resumed int) {
	c.train = true
	if c.opt.Quiet {
		return
	}
	from := ""
	if resumed > 0 {
		from = fmt.Sprintf(", resuming after update %d", resumed)
	}
	fmt.Fprintf(c.out, "simdrl: recipe %s, seed %d, %d updates of %d episodes, levels %v (%s), %s, backend %s%s\n",
		cfg.Recipe, cfg.Seed, cfg.Updates, cfg.Batch, cfg.TrainLevels, cfg.Curriculum, plural(cfg.Threads, "thread"), backend, from)
	if describe != "" {
		fmt.Fprintln(c.out, describe)
	}
	if cfg.EvalEvery > 0 {
		fmt.Fprintln(c.out, evaluationLegend)
	}
	fmt.Fprintln(c.out, "Training…")
}

// evaluated writes the metrics line, calls Options.Evaluated, then erases
// the status line and prints the evaluation's lines.
func (c *console) evaluated(p EvalPoint, heldOut, training []EvalResult, trained bool) error {
	if c.opt.Metrics != nil {
		// One Write per line (the encoder's): an appended file never holds
		// half of one line and half of another.
		if err := json.NewEncoder(c.opt.Metrics).Encode(p); err != nil {
			return outputError("metrics", err)
		}
	}
	if c.opt.Evaluated != nil {
		if err := c.opt.Evaluated(p, trained); err != nil {
			return outputError("the Evaluated callback", err)
		}
	}
	c.bar.clear()
	c.bar.evaluated(heldOut)
	if !c.opt.Quiet {
		c.printEvaluation(p, heldOut, training, trained)
	}
	return nil
}

// evaluationLegend explains, once before the first, the figures of the
// evaluation lines (the seed's words were ep, acc and eval, the last two
// mean rewards that exceed 1).
const evaluationLegend = "Each evaluation line: the update's train reward (its batch's mean), then per level Tn, on fresh instances\n" +
	"played greedily, the greedy reward (the mean: a bonus can take it above 1) and the solve rate (the fraction\n" +
	"answered correctly: the number to read); loss is the update's surrogate objective, whose sign means nothing."

// printEvaluation is an evaluation's line, and its confirmation's.
func (c *console) printEvaluation(p EvalPoint, heldOut, training []EvalResult, trained bool) {
	levels := "level " + p.Level
	if strings.Contains(p.Level, ",") {
		levels = "levels " + p.Level
	}
	head := fmt.Sprintf("update %d (%s): train reward %.3f", p.Update, levels, p.TrainReward)
	if !trained {
		head = fmt.Sprintf("update %d (%s): (the evaluation an interrupt cut short, redone)", p.Update, levels)
	}
	solved := perLevelEval(heldOut, " ")
	if training != nil {
		solved = "held-out " + solved + " | training " + perLevelEval(training, " ")
	}
	loss := ""
	if trained {
		loss = fmt.Sprintf(" | loss %.3f", p.Loss.Total)
	}
	fmt.Fprintf(c.out, "%s | greedy reward %s | solve rate %s%s%s\n", head, perLevelMean(heldOut, " "), solved, sampledLine(p, c.passK()), loss)
	if p.Confirmation != nil {
		fmt.Fprintln(c.out, formatConfirmation(*p.Confirmation, c.cfg.StopAt))
	}
}

func (c *console) explaining(level int) {
	if !c.opt.Quiet {
		fmt.Fprintf(c.out, "\n%s samples:\n", levelTitle(c.t, level))
	}
}

func (c *console) explained(_ int, ex task.Explanation) {
	if !c.opt.Quiet {
		fmt.Fprintln(c.out, formatExplanation(ex))
	}
}

// finalEvaluated prints the final evaluation, Quiet or not.
func (c *console) finalEvaluated(heldOut, training, transfer []EvalResult) {
	fmt.Fprintf(c.out, "\nFinal greedy mean rewards → %s (%d episodes per level%s)\n",
		perLevelMean(heldOut, ", "), c.cfg.FinalEpisodes, rewardNote(c.t))
	// A run the stop rule ended names the line of the split its
	// confirmation certified (steerSplit): an Itemized task's training
	// items, whose held-out headline the rule never read.
	certified := map[task.Split]string{}
	if c.cur != nil && c.cur.isSolved() && c.t.HoldsOut() {
		certified[steerSplit(c.t)] = "the split the stop rule certified"
	}
	switch {
	case !c.t.HoldsOut():
		fmt.Fprintf(c.out, "Final greedy solve rates → %s\n", perLevelEval(heldOut, ", "))
	case certified[task.HeldOut] != "":
		fmt.Fprintf(c.out, "Final greedy solve rates → %s (held-out instances; %s)\n", perLevelEval(heldOut, ", "), certified[task.HeldOut])
	default:
		fmt.Fprintf(c.out, "Final greedy solve rates → %s (held-out instances)\n", perLevelEval(heldOut, ", "))
	}
	if c.t.HoldsOut() {
		note := ""
		if certified[task.Training] != "" {
			note = " (" + certified[task.Training] + ")"
		}
		fmt.Fprintf(c.out, "On training instances  → %s%s\n", perLevelEval(training, ", "), note)
	}
	if transfer != nil {
		fmt.Fprintf(c.out, "On transfer instances  → %s\n", perLevelEval(transfer, ", "))
	}
}

// finished closes a training run: the interrupt's line (Quiet or not) and
// the summary.
func (c *console) finished(rep *Report) {
	if !c.train {
		return
	}
	if rep.Interrupted {
		fmt.Fprintf(c.out, "interrupted: stopped after update %d of %d\n", rep.Updates, c.cfg.Updates)
	}
	if sum := rep.ParamSHA256; !c.opt.Quiet && len(sum) >= 16 {
		fmt.Fprintf(c.out, "%d updates in %.2fs of training (%.1f updates/s, %.3g env steps/s), %.2fs in all; params sha256 %s "+
			"(the trained weights' fingerprint: the same flags and seed give the same, for any -threads)\n",
			rep.Updates, rep.TrainSeconds, rep.UpdatesPerSecond, rep.EnvStepsPerSecond, rep.WallSeconds, sum[:16])
	}
}

// passK is the k of the sampled evaluation's pass@k (Options.EvalPassK,
// whose 0 is EvalSamples).
func (c *console) passK() int { return cmp.Or(c.opt.EvalPassK, c.opt.EvalSamples) }
