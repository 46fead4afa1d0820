package calc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseOptions observe and interrupt ParseLevelsWith.
type ParseOptions struct {
	// Interrupt, when closed, stops a running search within a few
	// milliseconds; ParseLevelsWith then returns an error that wraps
	// ErrInterrupted (and caches nothing of that search).
	Interrupt <-chan struct{}
	// Progress, when not nil, is called once a level's search has run for a
	// second and then about once a second, with a short line such as
	// "searching level 3 a*b+c*d-e*f+g*h: 1.2M states, 2.1 s" (for a terminal).
	Progress func(msg string)
}

// maxProblems is how many problems an error lists; the rest are counted.
const maxProblems = 5

// ParseLevelsWith reads a levels spec (see ParseLevels) in three phases, so
// that bad input costs little: the spec's length and level count are checked
// first (MaxSpecBytes, MaxLevels); then every level is parsed and levels that
// are one canonical expression (see Expr.Canonical) are refused as
// duplicates, all before any search; then every level is searched (see
// ParseLevel), each canonical function and depth once per process, within
// MaxSearchStates per search and MaxCurriculumStates in all. An error lists
// at most maxProblems problems, one a line, and counts the rest.
func ParseLevelsWith(spec string, opt ParseOptions) (Levels, error) {
	ls, _, err := parseLevels(spec, opt)
	return ls, err
}

// parseStats is what one parse searched, for tests.
type parseStats struct {
	searches  int // searches run (not answered by the cache or the table)
	states    int // states they visited together
	maxStates int // the most states of one search
}

func parseLevels(spec string, opt ParseOptions) (Levels, parseStats, error) {
	ps := levelSearch{opt: opt, statesLeft: MaxCurriculumStates}
	items, err := parseItems(spec)
	if err != nil {
		return nil, ps.stats, err
	}
	var ls Levels
	var problems []string
	for _, it := range items {
		lv, err := ps.level(it)
		if errors.Is(err, ErrInterrupted) {
			return nil, ps.stats, fmt.Errorf("%s: %w", it.name(), err)
		}
		if err != nil {
			problems = append(problems, it.name()+": "+err.Error())
			continue
		}
		ls = append(ls, lv)
	}
	if len(problems) > 0 {
		return nil, ps.stats, problemsError(problems)
	}
	return ls, ps.stats, nil
}

// levelItem is one level of a spec, parsed but not yet searched.
type levelItem struct {
	index  int    // from 0, as every other message counts levels
	text   string // as written, trimmed
	expr   *Expr
	budget int // 0: the default
}

// name spells the item for an error line: its number and (shortened) text.
func (it levelItem) name() string {
	if it.text == "" {
		return fmt.Sprintf("level %d", it.index)
	}
	t := it.text
	if r := []rune(t); len(r) > 40 {
		t = string(r[:40]) + "…"
	}
	return fmt.Sprintf("level %d %q", it.index, t)
}

// parseItems checks the spec's size, parses every level and refuses
// duplicates; it searches nothing.
func parseItems(spec string) ([]levelItem, error) {
	if len(spec) > MaxSpecBytes {
		return nil, fmt.Errorf("the levels are %d bytes long; at most %d", len(spec), MaxSpecBytes)
	}
	if strings.TrimSpace(spec) == "" {
		return nil, errors.New("no levels")
	}
	texts := splitLevels(spec)
	if n := len(texts); n > MaxLevels {
		return nil, fmt.Errorf("%d levels; at most %d", n, MaxLevels)
	}
	var items []levelItem
	var problems []string
	seen := map[string]int{} // canonical expression → level number
	for i, text := range texts {
		it := levelItem{index: i, text: strings.TrimSpace(text)}
		err := it.parse()
		if err == nil {
			c := it.expr.Canonical()
			if j, dup := seen[c]; dup {
				err = fmt.Errorf("the same expression as level %d (both are %s)", j, c)
			} else {
				seen[c] = it.index
			}
		}
		if err != nil {
			problems = append(problems, it.name()+": "+err.Error())
			continue
		}
		items = append(items, it)
	}
	if len(problems) > 0 {
		return nil, problemsError(problems)
	}
	return items, nil
}

// splitLevels splits a spec at its commas, except those inside the
// parentheses of abs, max or min, which separate arguments: "max(a,b)+c,
// a*b" is two levels. A comma elsewhere (also inside plain parentheses) ends
// a level, so an unclosed "(" spoils only its own level.
func splitLevels(spec string) []string {
	var out []string
	var open []bool // the parentheses open in this level: a function's?
	calls := 0      // how many of them are a function's
	start := 0
	for i := 0; i < len(spec); i++ {
		switch spec[i] {
		case '(':
			f := isCall(spec[start:i])
			open = append(open, f)
			if f {
				calls++
			}
		case ')':
			if n := len(open); n > 0 {
				if open[n-1] {
					calls--
				}
				open = open[:n-1]
			}
		case ',':
			if calls == 0 {
				out = append(out, spec[start:i])
				start, open = i+1, open[:0]
			}
		}
	}
	return append(out, spec[start:])
}

// isCall reports whether the text before a "(" ends with a function's name.
func isCall(before string) bool {
	before = strings.TrimRight(before, " \t")
	for _, f := range functions {
		if strings.HasSuffix(before, f.name) {
			return true
		}
	}
	return false
}

// parse reads the item's expression and budget.
func (it *levelItem) parse() error {
	text := it.text
	if i := strings.LastIndexByte(text, ':'); i >= 0 {
		b, err := strconv.Atoi(strings.TrimSpace(text[i+1:]))
		if err != nil || b < 1 || b > MaxBudget {
			return fmt.Errorf("budget %q after \":\" is not a whole number from 1 to %d", strings.TrimSpace(text[i+1:]), MaxBudget)
		}
		it.budget, text = b, strings.TrimSpace(text[:i])
	}
	e, err := ParseExpr(text)
	it.expr = e
	return err
}

// problemsError lists the first maxProblems problems, one a line, and counts the rest.
func problemsError(problems []string) error {
	if len(problems) <= maxProblems {
		return errors.New(strings.Join(problems, "\n"))
	}
	rest := len(problems) - maxProblems
	return fmt.Errorf("%s\n… and %d more %s", strings.Join(problems[:maxProblems], "\n"), rest, plural(rest, "problem", "problems"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// levelSearch searches the levels of one parse within the curriculum's cap.
type levelSearch struct {
	opt        ParseOptions
	statesLeft int
	stats      parseStats
}

// level searches one item's program and builds the level.
func (ps *levelSearch) level(it levelItem) (Level, error) {
	e := it.expr
	if e.Branches() {
		// No compiler stands behind the tree search, so an explicit budget
		// is its depth; MaxSearchStates bounds its work at any depth.
		depth := MaxSearchLen
		if it.budget != 0 {
			depth = it.budget
		}
		return ps.treeLevel(it, depth)
	}
	depth := MaxSearchLen
	if it.budget != 0 {
		depth = min(it.budget, MaxSearchLen)
	}
	r, err := ps.search(it, depth)
	if err != nil {
		return Level{}, err
	}
	prog := r.Program
	if prog == nil {
		// Beyond the search: the compiled program, when the budget allows it.
		limit := it.budget
		if limit == 0 {
			limit = MaxBudget
		}
		if c := compile(e); c != nil && len(c) <= limit && Computes(e, c) {
			prog = c
		}
	}
	if prog == nil {
		if r.Capped {
			return Level{}, ps.cappedError(r, depth)
		}
		hint := ""
		if depth < MaxSearchLen {
			longer, err := ps.search(it, MaxSearchLen)
			if err != nil {
				return Level{}, err
			}
			if longer.Found() {
				hint = fmt.Sprintf("; the shortest has %d", len(longer.Program))
			}
		}
		return Level{}, fmt.Errorf("no program of at most %d %s computes it (operands are read in order a, b, c, …, each by one tool; one memory slot)%s",
			depth, plural(depth, "token", "tokens"), hint)
	}
	budget := it.budget
	if budget == 0 {
		budget = min(len(prog)+BudgetSlack, MaxBudget)
	}
	lv := Level{Expr: e, Budget: budget, Shortest: prog, salt: e.functionSalt()}
	if err := lv.checkSplit(); err != nil {
		return Level{}, err
	}
	return lv, nil
}

// treeLevel searches a branching item's decision tree (SearchTree) and
// builds the level: its budget by default the tree's worst-case length plus
// BudgetSlack.
func (ps *levelSearch) treeLevel(it levelItem, depth int) (Level, error) {
	r, err := ps.searchTree(it, depth)
	if err != nil {
		return Level{}, err
	}
	if !r.Found() {
		if r.Capped {
			if r.Rounds >= maxTreeRounds {
				return Level{}, fmt.Errorf("the search for a decision tree found %d trees right on its tuples but wrong on others; give a smaller expression or an explicit :budget", r.Rounds)
			}
			if ps.statesLeft <= 0 {
				return Level{}, fmt.Errorf("the searches of this spec visited %d states together, the most they may (%d); give fewer or smaller levels", MaxCurriculumStates-ps.statesLeft, MaxCurriculumStates)
			}
			return Level{}, fmt.Errorf("the search for a decision tree visited %d states, the most one search may, without finding one of at most %d %s; give a smaller expression or a smaller explicit :budget",
				r.States, depth, plural(depth, "token", "tokens"))
		}
		return Level{}, fmt.Errorf("no decision tree of at most %d %s on a path computes it (the branching machine, observing the signs of v and v-m after each token)",
			depth, plural(depth, "token", "tokens"))
	}
	budget := it.budget
	if budget == 0 {
		budget = min(r.Tree.Depth()+BudgetSlack, MaxBudget)
	}
	lv := Level{Expr: it.expr, Budget: budget, Tree: r.Tree, salt: it.expr.functionSalt()}
	if err := lv.checkSplit(); err != nil {
		return Level{}, err
	}
	return lv, nil
}

// searchTree is search for a decision tree (SearchTree).
func (ps *levelSearch) searchTree(it levelItem, depth int) (TreeResult, error) {
	key := searchKey{it.expr.functionKey(), depth}
	if r, ok := treeCache.Load(key); ok {
		return r.(TreeResult), nil
	}
	limits := searchLimits{states: min(MaxSearchStates, max(ps.statesLeft, 0)), interrupt: ps.opt.Interrupt}
	if ps.opt.Progress != nil {
		limits.progress = func(states int, elapsed time.Duration) {
			ps.opt.Progress(fmt.Sprintf("searching level %d %s: %s states, %.1f s", it.index, it.expr, humanCount(states), elapsed.Seconds()))
		}
	}
	r, err := newTreeSearcher(it.expr, limits).run(depth)
	ps.statesLeft -= r.States
	ps.stats.searches++
	ps.stats.states += r.States
	ps.stats.maxStates = max(ps.stats.maxStates, r.States)
	if err != nil {
		return r, err
	}
	if !r.Capped || limits.states == MaxSearchStates {
		treeCache.Store(key, r) // trees are read-only once found
	}
	return r, nil
}

func (ps *levelSearch) cappedError(r SearchResult, depth int) error {
	if r.Rejected >= maxRejected {
		return fmt.Errorf("the search for a shortest program rejected %d programs right on every probe but wrong on some tuple; give a smaller expression or an explicit :budget", r.Rejected)
	}
	if ps.statesLeft <= 0 {
		return fmt.Errorf("the searches of this spec visited %d states together, the most they may (%d); give fewer or smaller levels", MaxCurriculumStates-ps.statesLeft, MaxCurriculumStates)
	}
	return fmt.Errorf("the search for a shortest program visited %d states, the most one search may, without finding one of at most %d %s; give a smaller expression or a smaller explicit :budget",
		r.States, depth, plural(depth, "token", "tokens"))
}

// search runs (or recalls) the search of the item's function to depth,
// within what is left of the curriculum's cap.
func (ps *levelSearch) search(it levelItem, depth int) (SearchResult, error) {
	if r, ok := recall(it.expr, depth); ok {
		return r, nil
	}
	limits := searchLimits{states: min(MaxSearchStates, max(ps.statesLeft, 0)), interrupt: ps.opt.Interrupt}
	if ps.opt.Progress != nil {
		limits.progress = func(states int, elapsed time.Duration) {
			ps.opt.Progress(fmt.Sprintf("searching level %d %s: %s states, %.1f s", it.index, it.expr, humanCount(states), elapsed.Seconds()))
		}
	}
	r, err := newSearcher(it.expr, nil, limits).run(depth)
	ps.statesLeft -= r.States
	ps.stats.searches++
	ps.stats.states += r.States
	ps.stats.maxStates = max(ps.stats.maxStates, r.States)
	if err != nil {
		return r, err
	}
	if !r.Capped || limits.states == MaxSearchStates {
		remember(it.expr, depth, r)
	}
	return r, nil
}

// humanCount spells a count shortly: 950, 12.3k, 1.2M.
func humanCount(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return strconv.Itoa(n)
}
