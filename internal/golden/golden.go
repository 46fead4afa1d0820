package golden

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Dir is the folder holding env.jsonl and model.json.
func Dir() string {
	if d := os.Getenv("SIMDRL_GOLDEN_DIR"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "golden")
}

// ObsDir is the folder of golden cases whose inputs carry observations
// (make_golden.py --observations): SIMDRL_GOLDEN_OBS_DIR when set, else the
// project's testdata/golden-obs.
func ObsDir() string {
	if d := os.Getenv("SIMDRL_GOLDEN_OBS_DIR"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "golden-obs")
}

// FieldsDirs are the folders of golden cases whose inputs carry fields and
// a vector, of a model that takes its context as a bag and of one that
// reads it (or SIMDRL_GOLDEN_FIELDS_DIR, SIMDRL_GOLDEN_READ_FIELDS_DIR).
func FieldsDirs() []string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "testdata")
	dirs := []string{filepath.Join(root, "golden-fields"), filepath.Join(root, "golden-read-fields")}
	for i, env := range []string{"SIMDRL_GOLDEN_FIELDS_DIR", "SIMDRL_GOLDEN_READ_FIELDS_DIR"} {
		if d := os.Getenv(env); d != "" {
			dirs[i] = d
		}
	}
	return dirs
}

// ReadDirs are the folders of golden cases of a reading model
// (make_golden.py --context read): without observations, then with;
// SIMDRL_GOLDEN_READ_DIR and SIMDRL_GOLDEN_READ_OBS_DIR replace them when
// set.
func ReadDirs() []string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "testdata")
	dirs := []string{filepath.Join(root, "golden-read"), filepath.Join(root, "golden-read-obs")}
	for i, env := range []string{"SIMDRL_GOLDEN_READ_DIR", "SIMDRL_GOLDEN_READ_OBS_DIR"} {
		if d := os.Getenv(env); d != "" {
			dirs[i] = d
		}
	}
	return dirs
}

// EstimatorDirs are the folders of golden cases whose loss is a group
// estimator's (make_golden.py --estimator): rloo, grpo and drgrpo, each
// replaced by SIMDRL_GOLDEN_RLOO_DIR, SIMDRL_GOLDEN_GRPO_DIR or
// SIMDRL_GOLDEN_DRGRPO_DIR when set.
func EstimatorDirs() []string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "testdata")
	var dirs []string
	for _, est := range []string{"rloo", "grpo", "drgrpo"} {
		d := filepath.Join(root, "golden-"+est)
		if env := os.Getenv("SIMDRL_GOLDEN_" + strings.ToUpper(est) + "_DIR"); env != "" {
			d = env
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// EnvCase is one line of env.jsonl.
type EnvCase struct {
	Level   int     `json:"stage"`
	Digits  [5]int  `json:"digits"`
	Actions []int32 `json:"actions"`
	Reward  float64 `json:"reward"`
	Steps   int     `json:"steps"`
}

// LoadEnv reads every case of env.jsonl.
func LoadEnv(dir string) ([]EnvCase, error) {
	f, err := os.Open(filepath.Join(dir, "env.jsonl"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []EnvCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var c EnvCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("env.jsonl line %d: %w", line, err)
		}
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

// Tensor is a named parameter or gradient: shape and row-major data.
type Tensor struct {
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

// Loss holds the four loss terms: the seed's, or the estimator's (Model.Estimator).
type Loss struct {
	PG      float64 `json:"pg"`
	Value   float64 `json:"value"`
	Entropy float64 `json:"entropy"`
	Total   float64 `json:"total"`
}

// Batch is one teacher-forced batch and everything PyTorch computed on it.
type Batch struct {
	Ctx     [][]int32 `json:"ctx"`
	Level   []int     `json:"stage"`
	Actions [][]int32 `json:"actions"`
	Rewards []float64 `json:"rewards"`
	Obs     [][]int32 `json:"obs"` // [B][steps] with observations: step t's input carries Obs[b][t]
	// With fields: step t's input carries Fields[b][t] and Vec[b][t].
	Fields  [][][]int32          `json:"fields"`
	Vec     [][][]float32        `json:"vec"`
	End     []int32              `json:"end"` // [B] with an estimator: the step that ended each row
	Logp    []float64            `json:"logp"`
	Entropy []float64            `json:"entropy"`
	Value   []float64            `json:"value"`
	Greedy  []int32              `json:"greedy"`
	Loss    Loss                 `json:"loss"`
	Grad    map[string][]float64 `json:"grad"`
}

// Adam is the two-step optimiser case.
type Adam struct {
	LR                  float64           `json:"lr"`
	Betas               [2]float64        `json:"betas"`
	Eps                 float64           `json:"eps"`
	Clip                float64           `json:"clip"`
	GradNormsBeforeClip []float64         `json:"grad_norms_before_clip"`
	After               map[string]Tensor `json:"after"`
}

// Model is model.json.
type Model struct {
	Seed   int `json:"seed"`
	Vocab  int `json:"vocab"`
	Hidden int `json:"hidden"`
	Steps  int `json:"steps"`
	// Observations is the observation vocabulary (absent: 0, the model
	// observes nothing).
	Observations int `json:"observations"`
	// Fields and Vector are the observation fields' sizes and the vector's
	// width (gru.Config.Fields, Vector; absent: none).
	Fields []int `json:"fields"`
	Vector int   `json:"vector"`
	// Context is "read" for a model that reads its context
	// (gru.Config.Read); absent: the bag.
	Context string `json:"context"`
	// Estimator is the group estimator whose loss the batches hold (rloo,
	// grpo, drgrpo; absent: the seed's), over groups of Group consecutive
	// rows, the steps after a row's End weighing nothing when Mask.
	Estimator  string            `json:"estimator"`
	Group      int               `json:"group"`
	Mask       bool              `json:"mask"`
	Tokens     map[string]int    `json:"tokens"`
	ParamOrder []string          `json:"param_order"`
	Init       map[string]Tensor `json:"init"`
	Batches    []Batch           `json:"batches"`
	Adam       Adam              `json:"adam"`
}

// LoadModel reads model.json.
func LoadModel(dir string) (*Model, error) {
	b, err := os.ReadFile(filepath.Join(dir, "model.json"))
	if err != nil {
		return nil, err
	}
	var m Model
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("model.json: %w", err)
	}
	return &m, nil
}
