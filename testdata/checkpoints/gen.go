//go:build ignore

// Command gen writes the corrupt-checkpoint corpus of this folder: one small
// valid checkpoint (valid.safetensors, written by trainer.Trainer.Checkpoint and
// checkpoint.Encode, as `simdrl -save` writes them) and variants of it, each
// broken in one way, plus README.md, which lists them. Its output depends on
// nothing but this program and the code it calls: the parameters and Adam's
// moments are synthetic numbers (exact binary fractions, not the result of
// training, so no machine's floating point can change a byte).
//
//	go run ./testdata/checkpoints/gen.go          # from the repository root: rewrite the files
//	go run ./testdata/checkpoints/gen.go -check   # compare instead; exit 1 on any difference
//
// cli/corrupt_test.go runs the command on every file.
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
	_ "github.com/simdrl/simdrl/tasks/builtin" // the recipe's task, opened by name
	"github.com/simdrl/simdrl/trainer"
)

// Hidden is the valid checkpoint's model size (tiny, to keep the files small).
const Hidden = 4

// config is the valid checkpoint's: the default recipe, tiny, with both of
// its updates done (so -resume only evaluates, on 8 episodes per level).
func config() trainer.Config {
	c := trainer.DefaultRecipe()
	c.Hidden, c.Updates, c.Batch, c.Chunk, c.Threads = Hidden, 2, 16, 16, 1
	c.EvalEvery, c.EvalBatch, c.FinalEpisodes, c.Explain = 1, 8, 8, 0
	return c
}

type variant struct {
	name string // file name
	what string // what is wrong with it (README)
	data []byte
}

func main() {
	dir := flag.String("dir", "testdata/checkpoints", "the corpus folder")
	check := flag.Bool("check", false, "compare the folder with what would be written instead of writing it; exit 1 on any difference")
	flag.Parse()
	if _, err := os.Stat(filepath.Join(*dir, "gen.go")); err != nil {
		fail("%s/gen.go not found: run from the repository root or give -dir", *dir)
	}
	files := map[string][]byte{}
	vs := variants()
	for _, v := range vs {
		if _, dup := files[v.name]; dup {
			fail("two variants named %s", v.name)
		}
		files[v.name] = v.data
	}
	files["README.md"] = readme(vs)

	if !*check {
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(*dir, name), data, 0o644); err != nil {
				fail("%v", err)
			}
		}
		// Files of an older corpus that this one no longer has.
		entries, err := os.ReadDir(*dir)
		if err != nil {
			fail("%v", err)
		}
		for _, e := range entries {
			if _, ok := files[e.Name()]; !ok && strings.HasSuffix(e.Name(), ".safetensors") {
				if err := os.Remove(filepath.Join(*dir, e.Name())); err != nil {
					fail("%v", err)
				}
			}
		}
		return
	}
	var diffs []string
	entries, err := os.ReadDir(*dir)
	if err != nil {
		fail("%v", err)
	}
	onDisk := map[string]bool{}
	for _, e := range entries {
		onDisk[e.Name()] = true
		if e.Name() == "gen.go" {
			continue
		}
		want, ok := files[e.Name()]
		if !ok {
			diffs = append(diffs, e.Name()+": not written by gen.go (remove it)")
			continue
		}
		got, err := os.ReadFile(filepath.Join(*dir, e.Name()))
		if err != nil {
			fail("%v", err)
		}
		if !bytes.Equal(got, want) {
			diffs = append(diffs, e.Name()+": differs from what gen.go writes")
		}
	}
	for name := range files {
		if !onDisk[name] {
			diffs = append(diffs, name+": missing")
		}
	}
	if len(diffs) > 0 {
		slices.Sort(diffs)
		fmt.Fprintf(os.Stderr, "gen: %s is stale (rerun go run ./testdata/checkpoints/gen.go and commit):\n  %s\n", *dir, strings.Join(diffs, "\n  "))
		os.Exit(1)
	}
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "gen: "+format+"\n", a...)
	os.Exit(1)
}

// valid is the valid checkpoint as a File: synthetic parameters in
// (-0.8, 0.8), first moments in (-0.008, 0.008), second moments in (0, 0.001),
// all exact binary fractions; update 2 of 2. A trainer.Trainer writes it,
// as for every engine, from a driver that holds those numbers (fixed).
func valid() *checkpoint.File {
	cfg := config()
	l, err := gru.NewLayout(gru.Config{Vocab: seed.Vocab, Hidden: cfg.Hidden, Levels: seed.NumLevels})
	if err != nil {
		fail("%v", err)
	}
	e := &fixed{params: make([]float32, l.Size), m: make([]float32, l.Size), v: make([]float32, l.Size)}
	for i := range e.params {
		e.params[i] = float32(i*37%101-50) / 64
		e.m[i] = float32(i*53%61-30) / 4096
		e.v[i] = float32(i*29%47+1) / 65536
	}
	t, err := cfg.OpenTask()
	if err != nil {
		fail("%v", err)
	}
	tr, err := trainer.New(cfg, t, e)
	if err != nil {
		fail("%v", err)
	}
	for range cfg.Updates {
		if _, err := tr.Update(); err != nil {
			fail("%v", err)
		}
	}
	f, err := tr.Checkpoint()
	if err != nil {
		fail("%v", err)
	}
	return f
}

// fixed is a trainer.Engine whose updates only count Adam's steps: its
// parameters and moments stay the synthetic ones.
type fixed struct {
	params, m, v []float32
	steps        int
}

func (e *fixed) Backend() string  { return "fixed" }
func (e *fixed) Describe() string { return "" }
func (e *fixed) Update(p trainer.Plan) (trainer.UpdateStats, error) {
	e.steps++
	return trainer.UpdateStats{Update: p.Update, Level: p.Level}, nil
}
func (e *fixed) EvaluateAll(int, uint32, task.Split) ([]trainer.EvalResult, error) {
	return nil, fmt.Errorf("fixed: no evaluations")
}
func (e *fixed) GreedyPrograms([]task.Instance) ([]int32, error) {
	return nil, fmt.Errorf("fixed: no programs")
}
func (e *fixed) Params() ([]float32, error)                     { return e.params, nil }
func (e *fixed) SetParams(p []float32) error                    { copy(e.params, p); return nil }
func (e *fixed) Moments() (m, v []float32, step int, err error) { return e.m, e.v, e.steps, nil }
func (e *fixed) SetMoments(m, v []float32, step int) error {
	copy(e.m, m)
	copy(e.v, v)
	e.steps = step
	return nil
}
func (e *fixed) SetInterrupt(<-chan struct{}) {}
func (e *fixed) Close()                       {}

func encode(f *checkpoint.File) []byte {
	b, err := checkpoint.Encode(f)
	if err != nil {
		fail("%v", err)
	}
	return b
}

// clone is a deep copy of f.
func clone(f *checkpoint.File) *checkpoint.File {
	g := &checkpoint.File{Metadata: map[string]string{}}
	for k, v := range f.Metadata {
		g.Metadata[k] = v
	}
	for _, t := range f.Tensors {
		t.Shape, t.Data = slices.Clone(t.Shape), slices.Clone(t.Data)
		g.Tensors = append(g.Tensors, t)
	}
	return g
}

// withFile is valid() changed by edit, encoded.
func withFile(edit func(f *checkpoint.File)) []byte {
	f := clone(valid())
	edit(f)
	return encode(f)
}

// withValue is the valid checkpoint with tensor name's element i set to the
// float32 of bit pattern bits.
func withValue(name string, i int, bits uint32) []byte {
	return withFile(func(f *checkpoint.File) {
		for _, t := range f.Tensors {
			if t.Name == name {
				t.Data[i] = math.Float32frombits(bits)
				return
			}
		}
		fail("no tensor %s", name)
	})
}

// withMeta is the valid checkpoint with metadata value key edited (a
// one-time replacement of old by new; "" old replaces the whole value).
func withMeta(key, old, new string) []byte {
	return withFile(func(f *checkpoint.File) {
		if old == "" {
			f.Metadata[key] = new
			return
		}
		f.Metadata[key] = replaceOnce(f.Metadata[key], old, new)
	})
}

// replaceOnce replaces old, which must occur exactly once in s.
func replaceOnce(s, old, new string) string {
	if n := strings.Count(s, old); n != 1 {
		fail("%q occurs %d times in %q, want once", old, n, s)
	}
	return strings.Replace(s, old, new, 1)
}

// split returns a file's header (padding included) and data buffer.
func split(b []byte) (header string, data []byte) {
	n := binary.LittleEndian.Uint64(b)
	return string(b[8 : 8+n]), b[8+n:]
}

// join is a file of header and data, the header re-padded with spaces to a
// multiple of 8 bytes as Encode pads it.
func join(header string, data []byte) []byte {
	header = strings.TrimRight(header, " ")
	for len(header)%8 != 0 {
		header += " "
	}
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(b, header...), data...)
}

// withHeader is the valid checkpoint with its header edited.
func withHeader(edit func(h string) string) []byte {
	h, data := split(encode(valid()))
	return join(edit(h), data)
}

// entry is tensor name's header entry in h: "name":{...}.
func entry(h, name string) string {
	start := strings.Index(h, strconv.Quote(name)+":{")
	if start < 0 {
		fail("no tensor %s in the header", name)
	}
	return h[start : start+strings.Index(h[start:], "}")+1]
}

var offsetsRE = regexp.MustCompile(`"data_offsets":\[(\d+),(\d+)\]`)

// offsets are the data_offsets of a header entry.
func offsets(e string) (begin, end int) {
	m := offsetsRE.FindStringSubmatch(e)
	begin, _ = strconv.Atoi(m[1])
	end, _ = strconv.Atoi(m[2])
	return begin, end
}

// shifted is header entry e with its data_offsets moved by d bytes.
func shifted(e string, d int) string {
	b, en := offsets(e)
	return offsetsRE.ReplaceAllString(e, fmt.Sprintf(`"data_offsets":[%d,%d]`, b+d, en+d))
}

// lastTensor is the name of the tensor at the end of the data buffer.
func lastTensor() string {
	f := valid()
	return f.Tensors[len(f.Tensors)-1].Name
}

func variants() []variant {
	good := encode(valid())
	h, data := split(good)
	hlen := len(h)
	setLength := func(n uint64) []byte {
		b := slices.Clone(good)
		binary.LittleEndian.PutUint64(b, n)
		return b
	}
	flip := func(at int, mask byte) []byte {
		b := slices.Clone(good)
		b[at] ^= mask
		return b
	}
	emb := entry(h, "emb.weight")
	embAt := 8 + strings.Index(h, emb) // the '"' before emb.weight
	_, embEnd := offsets(emb)
	embEndAt := embAt + strings.Index(emb, ","+strconv.Itoa(embEnd)+"]") + 1
	last := lastTensor()
	const (
		nan        = 0x7fc00000
		nanPayload = 0x7fc01234
		posInf     = 0x7f800000
		negInf     = 0xff800000
	)
	dropTensor := func(name string) func(f *checkpoint.File) {
		return func(f *checkpoint.File) {
			f.Tensors = slices.DeleteFunc(f.Tensors, func(t checkpoint.Tensor) bool { return t.Name == name })
		}
	}

	return []variant{
		{"valid.safetensors", "nothing: a valid checkpoint (hidden 4, the default recipe, update 2 of 2); it loads with exit 0", good},

		// The file and its header length.
		{"empty.safetensors", "an empty file", nil},
		{"truncated-length.safetensors", "cut inside the 8-byte header length", good[:5]},
		{"truncated-header.safetensors", "cut in the middle of the JSON header", good[:8+hlen/2]},
		{"truncated-data.safetensors", "the last 10 bytes of the data buffer cut off", good[:len(good)-10]},
		{"header-length-huge.safetensors", "the header length says 2^62 bytes", setLength(1 << 62)},
		{"header-length-past-end.safetensors", "the header length is the whole file's size, more than follows it", setLength(uint64(len(good)))},
		{"header-length-short.safetensors", "the header length is 8 bytes short, cutting the JSON", setLength(uint64(hlen - 8))},
		{"header-length-long.safetensors", "the header length is 8 bytes long, taking in the start of the data", setLength(uint64(hlen + 8))},
		{"trailing-bytes.safetensors", "4 bytes after the last tensor", append(slices.Clone(good), 0, 0, 0, 0)},

		// Flipped bytes in the header.
		{"header-flip-utf8.safetensors", "one header byte's top bit flipped (the e of emb.weight): not UTF-8", flip(embAt+1, 0x80)},
		{"header-flip-json.safetensors", "one header byte's low bit flipped (the quote before emb.weight becomes #): not JSON", flip(embAt, 0x01)},
		{"header-flip-offset.safetensors", "one digit of emb.weight's data_offsets flipped (288 becomes 388)", flip(embEndAt, 0x01)},

		// Tensor entries.
		{"offsets-overlap.safetensors", "stage_emb.weight's data_offsets moved 4 bytes back, into emb.weight", withHeader(func(h string) string {
			e := entry(h, "stage_emb.weight")
			return replaceOnce(h, e, shifted(e, -4))
		})},
		{"offsets-past-end.safetensors", "the last tensor's data_offsets moved 4 bytes past the end of the data", withHeader(func(h string) string {
			e := entry(h, last)
			return replaceOnce(h, e, shifted(e, 4))
		})},
		{"offsets-gap.safetensors", "the last tensor's data_offsets moved 4 bytes on, over 4 extra bytes: a gap", func() []byte {
			e := entry(h, last)
			return join(replaceOnce(h, e, shifted(e, 4)), append(slices.Clone(data), 0, 0, 0, 0))
		}()},
		{"offsets-reversed.safetensors", "emb.weight's data_offsets reversed (begin after end)", withHeader(func(h string) string {
			return replaceOnce(h, `"data_offsets":[0,288]`, `"data_offsets":[288,0]`)
		})},
		{"dtype-f16.safetensors", "emb.weight's dtype is F16", withHeader(func(h string) string {
			e := entry(h, "emb.weight")
			return replaceOnce(h, e, replaceOnce(e, `"F32"`, `"F16"`))
		})},
		{"dtype-newline.safetensors", `v.bias's dtype is "F3\n2" (a newline in a string the error message names)`, withHeader(func(h string) string {
			e := entry(h, "v.bias")
			return replaceOnce(h, e, replaceOnce(e, `"F32"`, `"F3\n2"`))
		})},
		{"shape-offset-mismatch.safetensors", "emb.weight's shape is [18,5]: 360 bytes, but its data_offsets span 288", withHeader(func(h string) string {
			e := entry(h, "emb.weight")
			return replaceOnce(h, e, replaceOnce(e, `[18,4]`, `[18,5]`))
		})},
		{"shape-transposed.safetensors", "emb.weight's shape is [4,18] (the right size, the wrong shape)", withHeader(func(h string) string {
			e := entry(h, "emb.weight")
			return replaceOnce(h, e, replaceOnce(e, `[18,4]`, `[4,18]`))
		})},
		{"tensor-missing.safetensors", "no rnn.weight_hh_l0 (header entry and data removed)", withFile(dropTensor("rnn.weight_hh_l0"))},
		{"tensor-missing-moment.safetensors", "no optimizer.exp_avg_sq.pi.weight (the model is whole: -load takes it)", withFile(dropTensor("optimizer.exp_avg_sq.pi.weight"))},
		{"tensor-duplicate.safetensors", "pi.bias's header entry twice", withHeader(func(h string) string {
			e := entry(h, "pi.bias")
			return replaceOnce(h, e, e+","+e)
		})},
		{"tensor-extra.safetensors", "an extra tensor rnn.weight_hh_l1, part of no model of this shape (-load ignores it)", withFile(func(f *checkpoint.File) {
			f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: "rnn.weight_hh_l1", Shape: []int{2}, Data: []float32{0.5, -0.5}})
		})},
		{"tensor-name-newline.safetensors", `v.weight is named "v\nweight"`, withHeader(func(h string) string {
			return replaceOnce(h, `"v.weight":{`, `"v\nweight":{`)
		})},
		{"metadata-not-string.safetensors", `the metadata's update is the number 2, not the string "2"`, withHeader(func(h string) string {
			return replaceOnce(h, `"update":"2"`, `"update":2`)
		})},

		// Non-finite and impossible values.
		{"nan-weight.safetensors", "a NaN in rnn.weight_hh_l0 (index 9)", withValue("rnn.weight_hh_l0", 9, nan)},
		{"inf-weight.safetensors", "+Inf in pi.bias (index 3)", withValue("pi.bias", 3, posInf)},
		{"neg-inf-weight.safetensors", "-Inf in emb.weight (index 40)", withValue("emb.weight", 40, negInf)},
		{"nan-exp-avg.safetensors", "a NaN with a payload in Adam's first moment of rnn.weight_ih_l0 (index 7; -load checks moments too)", withValue("optimizer.exp_avg.rnn.weight_ih_l0", 7, nanPayload)},
		{"inf-exp-avg-sq.safetensors", "+Inf in Adam's second moment of v.weight (index 2)", withValue("optimizer.exp_avg_sq.v.weight", 2, posInf)},
		{"negative-exp-avg-sq.safetensors", "-0.25 in Adam's second moment of pi.bias (index 1), which is never negative", withValue("optimizer.exp_avg_sq.pi.bias", 1, math.Float32bits(-0.25))},

		// Lying metadata (-load takes only the weights: it ignores the format and
		// a config it cannot read, and needs no state, but refuses a broken one).
		{"format-wrong.safetensors", `format is "simdrl-checkpoint/3"`, withMeta("format", "", "simdrl-checkpoint/3")},
		{"format-missing.safetensors", "no format in the metadata", withFile(func(f *checkpoint.File) { delete(f.Metadata, "format") })},
		{"config-missing.safetensors", "no config in the metadata", withFile(func(f *checkpoint.File) { delete(f.Metadata, "config") })},
		{"config-broken.safetensors", "the config JSON cut in the middle", withFile(func(f *checkpoint.File) {
			f.Metadata["config"] = f.Metadata["config"][:len(f.Metadata["config"])/2]
		})},
		{"config-hidden-zero.safetensors", "config hidden 0", withMeta("config", `"hidden":4,`, `"hidden":0,`)},
		{"config-hidden-mismatch.safetensors", "config hidden 8, tensors of hidden 4", withMeta("config", `"hidden":4,`, `"hidden":8,`)},
		{"config-batch-negative.safetensors", "config batch -1", withMeta("config", `"batch":16,`, `"batch":-1,`)},
		{"config-unknown-field.safetensors", `config has a field "hiddne" (json.Unmarshal alone would ignore it)`, withMeta("config", `"hidden":4,`, `"hidden":4,"hiddne":8,`)},
		{"config-missing-field.safetensors", "config lacks entropy_final (json.Unmarshal alone would make it 0, not the recipe's)", withFile(func(f *checkpoint.File) {
			f.Metadata["config"] = regexp.MustCompile(`,"entropy_final":[^,]+`).ReplaceAllString(f.Metadata["config"], "")
		})},
		{"config-duplicate-field.safetensors", "config names hidden twice, 4 then 8 (json.Unmarshal alone would keep the 8)", withMeta("config", `"hidden":4,`, `"hidden":4,"hidden":8,`)},
		{"config-recipe-unknown.safetensors", `config recipe "fast", which is no recipe`, withMeta("config", `"recipe":"default"`, `"recipe":"fast"`)},
		{"state-missing.safetensors", "no state in the metadata", withFile(func(f *checkpoint.File) { delete(f.Metadata, "state") })},
		{"state-broken.safetensors", "the state JSON cut in the middle", withFile(func(f *checkpoint.File) {
			// Cut inside last_solve_rate, wherever later fields put the middle.
			st := f.Metadata["state"]
			f.Metadata["state"] = st[:strings.Index(st, `"last_solve_rate":[`)+len(`"last_solve_rate":[0,`)]
		})},
		{"state-unlocked-out-of-range.safetensors", "state unlocked 7 (the curriculum has 3 levels)", withMeta("state", `"unlocked":3`, `"unlocked":7`)},
		{"state-update-negative.safetensors", "state update -2 (and the metadata's update -2)", withFile(func(f *checkpoint.File) {
			f.Metadata["state"] = replaceOnce(f.Metadata["state"], `"update":2`, `"update":-2`)
			f.Metadata["update"] = "-2"
		})},
		{"state-missing-field.safetensors", "state lacks update (json.Unmarshal alone would restart the schedule at 0)", withMeta("state", `"update":2,`, ``)},
		{"state-solve-rate-out-of-range.safetensors", "state last_solve_rate [0,1.5,0]", withMeta("state", `"last_solve_rate":[0,0,0]`, `"last_solve_rate":[0,1.5,0]`)},
		{"state-adam-step-disagrees.safetensors", "state adam_step 5 after update 2 (every update takes one Adam step)", withMeta("state", `"adam_step":2`, `"adam_step":5`)},
		{"metadata-update-lies.safetensors", `the metadata's update is "7", the state's 2`, withMeta("update", "", "7")},
	}
}

func readme(vs []variant) []byte {
	var b bytes.Buffer
	b.WriteString(`# Corrupt checkpoints

Written by ` + "`gen.go`" + ` (beside this file), which also writes this README; do not edit these files by hand.

    go run ./testdata/checkpoints/gen.go          # from the repository root: rewrite the files
    go run ./testdata/checkpoints/gen.go -check   # compare instead; exit 1 on any difference (CI)

` + "`valid.safetensors`" + ` is a checkpoint as ` + "`simdrl -save`" + ` writes it (trainer.Trainer.Checkpoint, checkpoint.Encode): hidden 4,
the default recipe made tiny, update 2 of 2, with synthetic parameters and Adam moments (exact binary fractions, so the
bytes depend on no machine's floating point). Every other file is that checkpoint broken in one way.
cli/corrupt_test.go runs ` + "`simdrl -eval-only -load F`" + ` and ` + "`simdrl -resume F`" + ` on each one: the valid file
loads with exit 0, every other file is refused with exit 2 and one line saying what is wrong (` + "`-load`" + ` takes only the
weights, so it is run only on the files whose weights or training state are broken, or whose file is; without a
state, as in ` + "`state-missing.safetensors`" + `, a file is weights only to it).
The files follow the code that writes checkpoints: when Config, the training state or Encode changes, the -check
fails (as TestCorpusIsUpToDate does); rerun the generator, commit, and update the byte counts in corrupt_test.go's table.

| file | what is wrong |
|---|---|
`)
	for _, v := range vs {
		fmt.Fprintf(&b, "| `%s` | %s |\n", v.name, strings.ReplaceAll(v.what, "|", `\|`))
	}
	return b.Bytes()
}
