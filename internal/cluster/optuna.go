package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Optuna is a study in an Optuna storage, driven through the optuna
// command (python3-optuna 3.1's CLI: create-study, ask, tell, trials). Its
// sampler is the study's default, TPE: `optuna ask` without --sampler loads
// the study with Optuna's default sampler.
type Optuna struct {
	Command   []string // ["optuna"]
	Storage   string   // an SQLAlchemy URL: postgresql+psycopg2://…, mysql://…, sqlite:///file (one worker only)
	Study     string
	Direction string // "maximize" or "minimize"
	// Space is the search space as `optuna ask --search-space` takes it: a
	// JSON object from a train flag's name (without its '-') to an Optuna
	// distribution ({"name": "FloatDistribution", "attributes": {…}}).
	Space string
	Log   io.Writer // the optuna command's own messages (its stderr)
}

// Trial is a trial asked for: its number in the study and the flags its
// parameters make.
type Trial struct {
	Number int
	Flags  []string
}

// flagName is what a search space's key must be: a train flag's name.
var flagName = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// ParseSpace checks a search space: a JSON object whose keys are flag
// names and whose values are Optuna distributions (a name and attributes;
// Optuna checks the rest when asked). reserved are flags the worker sets
// itself. It returns the space as one line of JSON.
func ParseSpace(data []byte, reserved []string) (string, error) {
	var space map[string]struct {
		Name       string          `json:"name"`
		Attributes json.RawMessage `json:"attributes"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&space); err != nil {
		return "", fmt.Errorf("not a search space (a JSON object of flag: {\"name\": …Distribution, \"attributes\": {…}}): %v", err)
	}
	if len(space) == 0 {
		return "", errors.New("the search space is empty: nothing to search")
	}
	for name, d := range space {
		switch {
		case !flagName.MatchString(name):
			return "", fmt.Errorf("%q is not a flag's name (lower-case, without the '-')", name)
		case slices.Contains(reserved, name):
			return "", fmt.Errorf("-%s is set by the worker for each trial: it cannot be searched", name)
		case !strings.HasSuffix(d.Name, "Distribution") || len(d.Attributes) == 0:
			return "", fmt.Errorf("%s: %q with attributes %s is not an Optuna distribution (FloatDistribution, IntDistribution, CategoricalDistribution)", name, d.Name, d.Attributes)
		}
	}
	line, err := json.Marshal(space)
	return string(line), err
}

// run runs the optuna command with args on the storage and study and
// returns its standard output.
func (o Optuna) run(args ...string) ([]byte, error) {
	full := append(append(slices.Clone(o.Command[1:]), args...), "--storage", o.Storage, "--study-name", o.Study)
	cmd := exec.Command(o.Command[0], full...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if o.Log != nil {
		_, _ = o.Log.Write(stderr.Bytes())
	}
	if err != nil {
		return nil, fmt.Errorf("optuna %s: %v: %s", args[0], err, lastLine(stderr.String()))
	}
	return out, nil
}

// Create makes the study unless it exists. Workers that start together
// race to create it, and the losers' insert fails: one more try finds it.
func (o Optuna) Create() error {
	args := []string{"create-study", "--skip-if-exists", "--direction", o.Direction}
	if _, err := o.run(args...); err != nil {
		if _, err2 := o.run(args...); err2 != nil {
			return err
		}
	}
	return nil
}

// Complete counts the study's complete trials.
func (o Optuna) Complete() (int, error) {
	out, err := o.run("trials", "-f", "json")
	if err != nil {
		return 0, err
	}
	var trials []struct {
		State string `json:"state"`
	}
	if err := json.Unmarshal(out, &trials); err != nil {
		return 0, fmt.Errorf("optuna trials: %v", err)
	}
	n := 0
	for _, t := range trials {
		if t.State == "COMPLETE" {
			n++
		}
	}
	return n, nil
}

// Ask starts a trial: its number and its parameters as flags.
func (o Optuna) Ask() (Trial, error) {
	out, err := o.run("ask", "-f", "json", "--search-space", o.Space)
	if err != nil {
		return Trial{}, err
	}
	return parseAsked(out)
}

// parseAsked reads ask's answer: {"number": N, "params": {name: value}},
// each value a number, a categorical string or a boolean.
func parseAsked(out []byte) (Trial, error) {
	var asked struct {
		Number *int           `json:"number"`
		Params map[string]any `json:"params"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&asked); err != nil || asked.Number == nil {
		return Trial{}, fmt.Errorf("optuna ask: not a trial: %q (%v)", lastLine(string(out)), err)
	}
	t := Trial{Number: *asked.Number}
	for _, name := range slices.Sorted(maps.Keys(asked.Params)) {
		switch v := asked.Params[name].(type) {
		case json.Number:
			t.Flags = append(t.Flags, "-"+name, v.String())
		case string:
			t.Flags = append(t.Flags, "-"+name, v)
		case bool:
			t.Flags = append(t.Flags, "-"+name+"="+strconv.FormatBool(v))
		default:
			return Trial{}, fmt.Errorf("optuna ask: parameter %s = %v is not a number, a string or a boolean", name, v)
		}
	}
	return t, nil
}

// Tell finishes trial n with its objective's value.
func (o Optuna) Tell(n int, value float64) error {
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return o.Fail(n)
	}
	_, err := o.run("tell", "--trial-number", strconv.Itoa(n), "--values", strconv.FormatFloat(value, 'g', -1, 64))
	return err
}

// Fail finishes trial n as failed: its run failed or was interrupted.
func (o Optuna) Fail(n int) error {
	_, err := o.run("tell", "--trial-number", strconv.Itoa(n), "--state", "fail")
	return err
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
