package trainer

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
)

// MaxExhaustive is the most instances of one level and split the exhaustive
// evaluation plays (Options.Exhaustive), and its default: every held-out
// tuple of calc's 4-digit levels (2,000) and every training tuple (8,000)
// fit. A level with a larger split is not listed (task.LevelTally.Listed
// false): its first instances in the task's order would be no fair sample
// of it, and the sampled evaluations cover it. The memory estimate counts
// listings of this size (enginekit.MaxListed).
const MaxExhaustive = enginekit.MaxListed

// maxEnumerated is the most instances of one level and split a listing
// holds (Trainer.listed): the exhaustive evaluation's and the stop rule's
// subsets' bound (the latter a part of training, which no option changes).
const maxEnumerated = MaxExhaustive

// greedyBatch is how many instances one GreedyPrograms (or GreedySolved)
// call plays.
const greedyBatch = 4096

// exhaustiveLimit is Options.Exhaustive as a count: 0 the default
// (MaxExhaustive), negative none, at most MaxExhaustive.
func exhaustiveLimit(opt int) int {
	switch {
	case opt == 0:
		return MaxExhaustive
	case opt < 0:
		return 0
	}
	return min(opt, MaxExhaustive)
}

// exhaustivePart is one level's split as the exhaustive evaluation plays it.
type exhaustivePart struct {
	split task.Split
	ins   []task.Instance
}

// exhaustive plays every instance of every level of an Enumerator task, held
// out and training, greedily on tr's engine, and counts the held-out ones by
// subset when the task is a Subsetter; nil for other tasks and for limit 0.
// A level with more than limit instances in a split is not listed. Before
// it plays, it tells r what it will play (exhaustivePlan).
func exhaustive(tr *Trainer, limit int, r *Reporter) ([]task.LevelTally, error) {
	t := tr.task
	en, ok := t.(task.Enumerator)
	if !ok || limit <= 0 {
		return nil, nil
	}
	sub, _ := t.(task.Subsetter)
	var names []string
	if sub != nil {
		names = sub.SubsetNames()
	}
	plan := make([][]exhaustivePart, len(t.Levels())) // nil: not listed
	unlisted := make([][]string, len(plan))
	for lv := range plan {
		for _, sp := range enginekit.ListedSplits(t, lv) {
			ins, err := tr.listed(en, lv, sp)
			if err != nil {
				return nil, err
			}
			// A split too large to list is left out alone: the held-out split
			// of a task whose training split is an endless generator is
			// still played whole.
			if ins == nil || len(ins) > limit {
				unlisted[lv] = append(unlisted[lv], sp.String())
				continue
			}
			plan[lv] = append(plan[lv], exhaustivePart{sp, ins})
		}
	}
	r.enumerating(exhaustivePlan(plan, unlisted, limit))
	var res []task.LevelTally
	for lv, l := range t.Levels() {
		lt := task.LevelTally{Level: l.Name, Listed: plan[lv] != nil}
		if lt.Listed {
			lt.Unlisted = unlisted[lv]
		}
		for _, p := range plan[lv] {
			sp, ins := p.split, p.ins
			solved, err := tr.solvedGreedily(ins)
			if err != nil {
				return nil, err
			}
			tally := &lt.Training
			switch sp {
			case task.HeldOut:
				tally = &lt.HeldOut
				lt.Subsets = subsetTallies(sub, names, ins, solved)
			case task.Transfer:
				lt.Transfer = &task.Tally{}
				tally = lt.Transfer
				lt.TransferSubsets = subsetTallies(sub, names, ins, solved)
			}
			tally.N = len(ins)
			for _, s := range solved {
				if s {
					tally.Solved++
				}
			}
		}
		res = append(res, lt)
	}
	return res, nil
}

// exhaustivePlan says what the exhaustive evaluation plays: "Exhaustive
// evaluation: 3 levels × 2 splits, 12345 instances (each level's splits
// whole, at most 20000 instances each)", and how many levels it leaves out
// and how many splits of the levels it plays (unlisted, per level).
func exhaustivePlan(plan [][]exhaustivePart, unlisted [][]string, limit int) string {
	levels, parts, instances := 0, 0, 0
	splits := map[int]bool{}
	for _, ps := range plan {
		if ps == nil {
			continue
		}
		levels++
		parts += len(ps)
		splits[len(ps)] = true
		for _, p := range ps {
			instances += len(p.ins)
		}
	}
	var b strings.Builder
	b.WriteString("Exhaustive evaluation: ")
	switch {
	case levels == 0:
		b.WriteString("none")
	case len(splits) == 1:
		fmt.Fprintf(&b, "%s × %s, %s", plural(levels, "level"), plural(parts/levels, "split"), plural(instances, "instance"))
	default:
		fmt.Fprintf(&b, "%s, %s in all, %s", plural(levels, "level"), plural(parts, "split"), plural(instances, "instance"))
	}
	fmt.Fprintf(&b, " (each level's splits whole, at most %d instances each", limit)
	if left := len(plan) - levels; left > 0 {
		fmt.Fprintf(&b, "; %s with more left out", plural(left, "level"))
	}
	splitsLeft := 0
	for lv, ps := range plan {
		if ps != nil {
			splitsLeft += len(unlisted[lv])
		}
	}
	if splitsLeft > 0 {
		fmt.Fprintf(&b, "; %s with more left out", plural(splitsLeft, "split"))
	}
	return b.String() + ")"
}

// trainingSubsets is the stop rule's look at subsets (confirm.go): for a
// task that lists its instances and names subsets, every training instance
// of each of levels whose training split can be listed, played greedily,
// counted by subset; per level (nil entries for levels not listed), or nil
// for other tasks.
func trainingSubsets(tr *Trainer, levels []int) ([][]task.Tally, error) {
	en, ok := tr.task.(task.Enumerator)
	sub, ok2 := tr.task.(task.Subsetter)
	if !ok || !ok2 {
		return nil, nil
	}
	out := make([][]task.Tally, len(tr.task.Levels()))
	for _, lv := range levels {
		ins, err := tr.listed(en, lv, task.Training)
		if err != nil {
			return nil, err
		}
		if ins == nil {
			continue
		}
		solved, err := tr.solvedGreedily(ins)
		if err != nil {
			return nil, err
		}
		out[lv] = subsetTallies(sub, sub.SubsetNames(), ins, solved)
	}
	return out, nil
}

// solvedGreedily plays ins greedily, a batch at a time, and reports which
// were answered correctly (task.Outcome.Correct): through the engine's
// greedySolver where it has one, else by scoring GreedyPrograms's programs.
func (tr *Trainer) solvedGreedily(ins []task.Instance) ([]bool, error) {
	T := tr.cfg.Steps
	solved := make([]bool, len(ins))
	gs, _ := tr.e.(greedySolver)
	for lo := 0; lo < len(ins); lo += greedyBatch {
		hi := min(lo+greedyBatch, len(ins))
		if gs != nil {
			if err := gs.GreedySolved(ins[lo:hi], solved[lo:hi]); err != nil {
				return nil, err
			}
			continue
		}
		progs, err := tr.e.GreedyPrograms(ins[lo:hi])
		if err != nil {
			return nil, err
		}
		for i := lo; i < hi; i++ {
			k := i - lo
			solved[i] = task.Score(tr.task, &ins[i], progs[k*T:(k+1)*T]).Correct
		}
	}
	return solved, nil
}

// subsetTallies counts ins and their solved flags by subset; nil without a
// Subsetter.
func subsetTallies(sub task.Subsetter, names []string, ins []task.Instance, solved []bool) []task.Tally {
	if sub == nil {
		return nil
	}
	ts := make([]task.Tally, len(names))
	for i, n := range names {
		ts[i].Name = n
	}
	for k := range ins {
		bits := sub.Subsets(&ins[k])
		for i := range ts {
			if bits&(1<<i) != 0 {
				ts[i].N++
				if solved[k] {
					ts[i].Solved++
				}
			}
		}
	}
	return ts
}

// printExhaustive writes one line per level: the held-out and training
// rates over every instance, then each held-out subset's; limit is the
// listing's bound (exhaustive).
func printExhaustive(out io.Writer, t task.Task, ls []task.LevelTally, limit int) {
	if len(ls) == 0 {
		return
	}
	fmt.Fprintln(out, "Every instance, greedy → held-out (training) [held-out subsets]:")
	for lv, l := range ls {
		var b strings.Builder
		fmt.Fprintf(&b, "  %s: %s (%s)", levelTitle(t, lv), splitText(l, task.HeldOut, l.HeldOut), splitText(l, task.Training, l.Training))
		if l.Transfer != nil {
			fmt.Fprintf(&b, " transfer %s", tallyText(*l.Transfer))
		}
		for _, s := range l.Subsets {
			if s.N > 0 {
				fmt.Fprintf(&b, " %s %.4f of %d", s.Name, s.Rate(), s.N)
			} else {
				fmt.Fprintf(&b, " %s none", s.Name)
			}
		}
		if len(l.TransferSubsets) > 0 {
			b.WriteString(" [transfer:")
			for _, s := range l.TransferSubsets {
				fmt.Fprintf(&b, " %s %s", s.Name, tallyText(s))
			}
			b.WriteString("]")
		}
		if !l.Listed {
			b.Reset()
			fmt.Fprintf(&b, "  %s: more than %d instances in a split, not listed", levelTitle(t, lv), limit)
		}
		fmt.Fprintln(out, b.String())
	}
}

// tallyText is "0.9500 of 40", or "none" for an empty split.
func tallyText(t task.Tally) string {
	if t.N == 0 {
		return "none"
	}
	return fmt.Sprintf("%.4f of %d", t.Rate(), t.N)
}

// splitText is tallyText of split sp's tally, or "training not listed"
// when the split was too large to list (LevelTally.Unlisted).
func splitText(l task.LevelTally, sp task.Split, t task.Tally) string {
	if slices.Contains(l.Unlisted, sp.String()) {
		return sp.String() + " not listed"
	}
	return tallyText(t)
}
