package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Spec is a sweep's description, read from YAML (or JSON, which is YAML):
// the flags every run shares, the axes that vary (a grid, random draws, or
// both: every grid point gets the same draws), and the seeds each point is
// run with. docs/experiments.md shows the format.
type Spec struct {
	Base   map[string]any   `yaml:"base"`   // flag name (without dashes) → value
	Grid   map[string][]any `yaml:"grid"`   // flag → the values to try, every combination
	Random *Random          `yaml:"random"` // flag → a range or a list, drawn Draws times
	Seeds  *Seeds           `yaml:"seeds"`  // nil: the recipe's seed, one run per point
}

// Random is the random axes: Draws points, each flag drawn from its range
// (or a list) by a generator seeded with Seed, so that a re-plan draws the
// same points.
type Random struct {
	Draws int              `yaml:"draws"`
	Seed  uint64           `yaml:"seed"`
	Axes  map[string]Range `yaml:"axes"`
}

// Range is one random axis: uniform in [Low, High] (Log: log-uniform; Int:
// rounded to a whole number), or, when Choices is set (the axis is written
// as a list), one of them.
type Range struct {
	Low, High float64
	Log, Int  bool
	Choices   []any
}

// UnmarshalYAML reads a range ({low, high, log, int}) or a list of choices.
func (r *Range) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.SequenceNode {
		return n.Decode(&r.Choices)
	}
	var m struct {
		Low  *float64 `yaml:"low"`
		High *float64 `yaml:"high"`
		Log  bool     `yaml:"log"`
		Int  bool     `yaml:"int"`
	}
	if err := decodeStrict(n, &m); err != nil {
		return err
	}
	if m.Low == nil || m.High == nil {
		return fmt.Errorf("line %d: a random axis is {low: …, high: …} (log, int optional) or a list of choices", n.Line)
	}
	r.Low, r.High, r.Log, r.Int = *m.Low, *m.High, m.Log, m.Int
	return nil
}

// Seeds are the seeds every point runs with: a list ([0, 1, 2]) or a range
// ({from: 0, to: 19}, both included).
type Seeds struct{ List []uint64 }

// UnmarshalYAML reads a list of seeds or {from, to}.
func (s *Seeds) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.SequenceNode {
		return n.Decode(&s.List)
	}
	var r struct {
		From *uint64 `yaml:"from"`
		To   *uint64 `yaml:"to"`
	}
	if err := decodeStrict(n, &r); err != nil {
		return err
	}
	switch {
	case r.From == nil || r.To == nil:
		return fmt.Errorf("line %d: seeds are a list ([0, 1, 2]) or a range ({from: 0, to: 19})", n.Line)
	case *r.To < *r.From:
		return fmt.Errorf("line %d: seeds from %d to %d: the range is empty", n.Line, *r.From, *r.To)
	case *r.To-*r.From >= MaxRuns:
		return fmt.Errorf("line %d: seeds from %d to %d: more than %d seeds", n.Line, *r.From, *r.To, MaxRuns)
	}
	for v := *r.From; ; v++ {
		s.List = append(s.List, v)
		if v == *r.To {
			return nil
		}
	}
}

// decodeStrict decodes a mapping node, refusing keys v does not have (a
// misspelt "hihg" must not become a silent default).
func decodeStrict(n *yaml.Node, v any) error {
	b, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	d := yaml.NewDecoder(bytes.NewReader(b))
	d.KnownFields(true)
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("line %d: %v", n.Line, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return nil
}

// MaxRuns bounds a plan: a spec that expands further is a mistake (an axis
// of a million values), not a sweep.
const MaxRuns = 100000

// ReadSpec reads a spec file.
func ReadSpec(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseSpec(b)
}

// ParseSpec reads a spec from YAML or JSON, refusing unknown keys.
func ParseSpec(b []byte) (*Spec, error) {
	var s Spec
	d := yaml.NewDecoder(bytes.NewReader(b))
	d.KnownFields(true)
	if err := d.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the spec is empty")
		}
		// One line: yaml lists its problems one a line.
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		msg = strings.ReplaceAll(strings.ReplaceAll(msg, ":\n  ", ": "), "\n  ", "; ")
		return nil, errors.New(msg)
	}
	return &s, s.check()
}

// reserved are the flags a sweep sets itself (each run's outputs are its
// directory's, its threads the worker's) or that make a run depend on a
// file outside the sweep; a spec may not give them.
var reserved = map[string]string{
	"save": "its run directory holds it", "save-every": "sweep run --save-every sets it", "resume": "sweep run resumes by itself",
	"load": "a run must depend on its flags alone", "report": "its run directory holds it", "metrics": "its run directory holds it",
	"tensorboard": "its run directory holds it", "plot": "draw it from metrics.jsonl", "threads": "sweep run --threads sets it",
	"quiet": "the log holds the whole output", "eval-only": "a sweep trains", "help": "not a run", "h": "not a run",
}

// check refuses what cannot make a plan: a reserved flag, a flag on two
// axes (or an axis and the base), an empty axis, a bad range.
func (s *Spec) check() error {
	owner := map[string]string{}
	claim := func(flag, where string) error {
		if strings.HasPrefix(flag, "-") {
			return fmt.Errorf("%s: write flag %q without dashes", where, flag)
		}
		if why, ok := reserved[flag]; ok {
			return fmt.Errorf("%s: -%s is the sweep's own (%s)", where, flag, why)
		}
		if prev, ok := owner[flag]; ok {
			return fmt.Errorf("-%s is in both %s and %s", flag, prev, where)
		}
		owner[flag] = where
		return nil
	}
	for _, f := range sortedKeys(s.Base) {
		if err := claim(f, "base"); err != nil {
			return err
		}
		if _, err := flagValue(s.Base[f]); err != nil {
			return fmt.Errorf("base: -%s: %v", f, err)
		}
	}
	for _, f := range sortedKeys(s.Grid) {
		if err := claim(f, "grid"); err != nil {
			return err
		}
		if len(s.Grid[f]) == 0 {
			return fmt.Errorf("grid: -%s has no values", f)
		}
		for _, v := range s.Grid[f] {
			if _, err := flagValue(v); err != nil {
				return fmt.Errorf("grid: -%s: %v", f, err)
			}
		}
	}
	if r := s.Random; r != nil {
		if r.Draws < 1 || len(r.Axes) == 0 {
			return fmt.Errorf("random: give draws ≥ 1 and at least one axis (got draws %d, %d axes)", r.Draws, len(r.Axes))
		}
		for _, f := range sortedKeys(r.Axes) {
			if err := claim(f, "random"); err != nil {
				return err
			}
			if err := r.Axes[f].check(); err != nil {
				return fmt.Errorf("random: -%s: %v", f, err)
			}
		}
	}
	if s.Seeds != nil {
		if err := claim("seed", "seeds"); err != nil {
			return err
		}
		if len(s.Seeds.List) == 0 {
			return errors.New("seeds: the list is empty")
		}
	}
	if n := s.size(); n > MaxRuns {
		return fmt.Errorf("the spec makes %.0f runs, more than %d", n, MaxRuns)
	}
	return nil
}

func (r Range) check() error {
	if r.Choices != nil {
		if len(r.Choices) == 0 {
			return errors.New("no choices")
		}
		for _, v := range r.Choices {
			if _, err := flagValue(v); err != nil {
				return err
			}
		}
		return nil
	}
	switch {
	case math.IsNaN(r.Low) || math.IsNaN(r.High) || math.IsInf(r.Low, 0) || math.IsInf(r.High, 0) || r.High < r.Low:
		return fmt.Errorf("low %v and high %v are not a range", r.Low, r.High)
	case r.Log && r.Low <= 0:
		return fmt.Errorf("a log range needs low > 0, got %v", r.Low)
	case r.Int && math.Ceil(r.Low) > math.Floor(r.High):
		return fmt.Errorf("no whole number in [%v, %v]", r.Low, r.High)
	}
	return nil
}

// size is the number of runs, as a float so that no product overflows.
func (s *Spec) size() float64 {
	n := 1.0
	for _, vs := range s.Grid {
		n *= float64(len(vs))
	}
	if s.Random != nil {
		n *= float64(s.Random.Draws)
	}
	if s.Seeds != nil {
		n *= float64(len(s.Seeds.List))
	}
	return n
}

// Run is one run of a plan: its command line (the train command's flags)
// and the values its axes and seed took, by flag name.
type Run struct {
	Args   []string
	Values map[string]string
}

// Runs expands the spec: every grid point (axes in name order, the last
// fastest), for each the random draws, for each the seeds. The base flags
// come first in every run, in name order.
func (s *Spec) Runs() []Run {
	var base []string
	for _, f := range sortedKeys(s.Base) {
		v, _ := flagValue(s.Base[f])
		base = appendFlag(base, f, v)
	}
	points := []map[string]string{{}}
	for _, f := range sortedKeys(s.Grid) {
		var next []map[string]string
		for _, p := range points {
			for _, v := range s.Grid[f] {
				q := clone(p)
				q[f], _ = flagValue(v)
				next = append(next, q)
			}
		}
		points = next
	}
	if s.Random != nil {
		draws := s.Random.draw()
		var next []map[string]string
		for _, p := range points {
			for _, d := range draws {
				q := clone(p)
				for f, v := range d {
					q[f] = v
				}
				next = append(next, q)
			}
		}
		points = next
	}
	var runs []Run
	for _, p := range points {
		seeds := []string{""}
		if s.Seeds != nil {
			seeds = seeds[:0]
			for _, v := range s.Seeds.List {
				seeds = append(seeds, strconv.FormatUint(v, 10))
			}
		}
		for _, seed := range seeds {
			r := Run{Args: slices.Clone(base), Values: clone(p)}
			if seed != "" {
				r.Values["seed"] = seed
			}
			for _, f := range sortedKeys(r.Values) {
				r.Args = appendFlag(r.Args, f, r.Values[f])
			}
			runs = append(runs, r)
		}
	}
	return runs
}

// draw draws the random points: axes in name order, one generator (PCG,
// whose output Go fixes) for all, so that a re-plan draws the same.
func (r *Random) draw() []map[string]string {
	g := rand.New(rand.NewPCG(r.Seed, 0x5eed))
	names := sortedKeys(r.Axes)
	out := make([]map[string]string, r.Draws)
	for i := range out {
		out[i] = map[string]string{}
		for _, f := range names {
			out[i][f] = r.Axes[f].draw(g)
		}
	}
	return out
}

func (r Range) draw(g *rand.Rand) string {
	if r.Choices != nil {
		v, _ := flagValue(r.Choices[g.IntN(len(r.Choices))])
		return v
	}
	u := g.Float64()
	var x float64
	if r.Log {
		x = math.Exp(math.Log(r.Low) + u*(math.Log(r.High)-math.Log(r.Low)))
	} else {
		x = r.Low + u*(r.High-r.Low)
	}
	x = min(max(x, r.Low), r.High) // exp∘log may round past an end
	if r.Int {
		x = min(max(math.Round(x), math.Ceil(r.Low)), math.Floor(r.High))
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// flagValue is a YAML scalar as a flag's value: numbers in Go's shortest
// form, booleans as true or false.
func flagValue(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case nil:
		return "", errors.New("a value is missing")
	}
	return "", fmt.Errorf("%v is not a flag's value (a number, a word or true/false)", v)
}

// appendFlag adds -flag value; a boolean as -flag=value, which is how a
// boolean flag takes one.
func appendFlag(args []string, flag, v string) []string {
	if v == "true" || v == "false" {
		return append(args, "-"+flag+"="+v)
	}
	return append(args, "-"+flag, v)
}

func clone(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
