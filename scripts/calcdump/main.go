// Command calcdump prints what the Go calc task and the CPU engine compute,
// as JSON lines, so that scripts/torch_calc.py can be checked against them
// (scripts/torch_calc_check.sh). It is a test tool, not part of simdrl.
//
//	calcdump score  [-n N] [-seed S]     programs × instances of every default level with calc.Run's outcome
//	calcdump split                       each default level's held-out tuple indices
//	calcdump draw   [-n N]               instances calc.Levels.Draw draws (Philox streams), and DrawLevel words
//	calcdump greedy -ckpt FILE [-n N]    the CPU engine's greedy programs of a checkpoint on N instances per level and split
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	_ "github.com/simdrl/simdrl/tasks/calctask" // registers "calc", which the greedy dump opens
	"github.com/simdrl/simdrl/trainer"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: calcdump score|split|draw|greedy [flags]")
		os.Exit(2)
	}
	mode := os.Args[1]
	fs := flag.NewFlagSet(mode, flag.ExitOnError)
	n := fs.Int("n", 0, "records (score: programs per level and split; draw: episodes per stream; greedy: instances per level and split)")
	seed := fs.Uint64("seed", 1, "seed of the programs and instances")
	ckpt := fs.String("ckpt", "", "greedy: the checkpoint")
	_ = fs.Parse(os.Args[2:])
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	enc := json.NewEncoder(out)
	var err error
	switch mode {
	case "score":
		err = score(enc, orDefault(*n, 600), *seed)
	case "split":
		err = split(enc)
	case "draw":
		err = draw(enc, orDefault(*n, 64))
	case "greedy":
		err = greedy(enc, *ckpt, orDefault(*n, 1000), *seed)
	default:
		err = fmt.Errorf("unknown mode %q", mode)
	}
	if err != nil {
		out.Flush()
		fmt.Fprintln(os.Stderr, "calcdump:", err)
		os.Exit(1)
	}
}

func orDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

// instanceJSON is an instance as the Python side reads it.
type instanceJSON struct {
	Level  int32   `json:"level"`
	Vars   int32   `json:"vars"`
	Budget int32   `json:"budget"`
	Digits []int32 `json:"digits"`
	Target int64   `json:"target"`
	Inner  []int64 `json:"inner"`
}

func fromInstance(in calc.Instance) instanceJSON {
	return instanceJSON{Level: in.Level, Vars: in.Vars, Budget: in.Budget, Digits: append([]int32(nil), in.Digits[:in.Vars]...),
		Target: in.Target, Inner: append([]int64(nil), in.Inner[:in.NInner]...)}
}

// score: for every default level, both splits and four partial-credit
// weights, n programs of several kinds (uniform over the vocabulary, tools
// only, the shortest program, one- and two-token mutations of it, it with
// tokens after the answer or without its answer), each on a fresh instance,
// with calc.Run's reward (float64: JSON round-trips it exactly) and outcome.
func score(enc *json.Encoder, n int, seed uint64) error {
	ls := calc.DefaultLevels()
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	key := rng.NewKey(seed)
	credits := []float64{0.3, 0, 1, 0.7}
	type rec struct {
		instanceJSON
		Kind     string  `json:"kind"`
		Credit   float64 `json:"credit"`
		Program  []int32 `json:"program"`
		Reward   float64 `json:"reward"`
		Correct  bool    `json:"correct"`
		Answered bool    `json:"answered"`
		Steps    int32   `json:"steps"`
		Held     int32   `json:"held"`
	}
	tool := func() int32 { return int32(calc.FirstTool + r.IntN(calc.Vocab-calc.FirstTool)) }
	ep := uint32(0)
	for lv := range ls {
		short := ls[lv].Shortest
		for _, heldOut := range []bool{false, true} {
			for i := 0; i < n; i++ {
				in := ls.Draw(key, 7, ep, rng.PurposeTask, lv, heldOut)
				ep++
				length := 1 + r.IntN(calc.MaxBudget)
				var prog []int32
				var kind string
				switch i % 8 {
				case 0:
					kind = "uniform"
					for range length {
						prog = append(prog, int32(r.IntN(calc.Vocab)))
					}
				case 1, 2:
					kind = "tools"
					for range length {
						prog = append(prog, tool())
					}
				case 3:
					kind = "shortest"
					prog = append(prog, short...)
					for r.IntN(2) == 0 {
						prog = append(prog, tool())
					}
				case 4, 5:
					kind = "mutated"
					prog = append(prog, short...)
					for range 1 + r.IntN(2) {
						switch j := r.IntN(len(prog)); r.IntN(3) {
						case 0:
							prog[j] = tool()
						case 1:
							prog = append(prog[:j], append([]int32{tool()}, prog[j:]...)...)
						default:
							if len(prog) > 1 {
								prog = append(prog[:j], prog[j+1:]...)
							}
						}
					}
				case 6:
					kind = "no-answer"
					prog = append(prog, short[:len(short)-1]...)
					for range r.IntN(4) {
						prog = append(prog, tool())
					}
				default:
					kind = "padded"
					// non-actions and no-ops before the shortest program: the budget runs out.
					for range 1 + r.IntN(3) {
						prog = append(prog, int32(r.IntN(calc.CTX+1)))
					}
					prog = append(prog, short...)
				}
				c := credits[(i/8)%len(credits)]
				o := calc.Run(in, prog, c)
				if err := enc.Encode(rec{fromInstance(in), kind, c, prog, o.Reward, o.Correct, o.Answered, o.Steps, o.InnerHeld}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// split: every default level's held-out tuple indices (digit k of the index
// is variable 'a'+k, least significant first), with its expression, digits
// shown, budget and shortest program.
func split(enc *json.Encoder) error {
	ls := calc.DefaultLevels()
	for lv := range ls {
		l := &ls[lv]
		nv := l.Vars()
		space := 1
		for range nv {
			space *= 10
		}
		var held []int
		for idx := 0; idx < space; idx++ {
			var d [calc.MaxVars]int32
			x := idx
			for k := 0; k < nv; k++ {
				d[k] = int32(x % 10)
				x /= 10
			}
			if l.IsHeldOut(&d) {
				held = append(held, idx)
			}
		}
		if err := enc.Encode(map[string]any{"level": lv, "expr": l.Expr.String(), "canonical": l.Expr.Canonical(),
			"vars": nv, "budget": l.Budget, "shortest": l.Shortest, "space": space, "held": held}); err != nil {
			return err
		}
	}
	return nil
}

// draw: the instances the engines draw, for several seeds, rounds and
// purposes (training and evaluation streams, both splits), and the level
// words of a mixed batch (DrawLevel's u), and a sampling uniform.
func draw(enc *json.Encoder, n int) error {
	ls := calc.DefaultLevels()
	for _, seed := range []uint64{0, 3, 1 << 40} {
		key := rng.NewKey(seed)
		for _, round := range []uint32{1, 2, 599, 6000, enginekit.ConfirmRound(20), enginekit.FinalRound, enginekit.ExplainRound} {
			for lv := range ls {
				for _, split := range []task.Split{task.Training, task.HeldOut} {
					purpose := rng.PurposeTask
					if split == task.HeldOut {
						purpose = enginekit.EvalPurpose(lv)
					}
					for ep := uint32(0); ep < uint32(n); ep++ {
						in := ls.Draw(key, round, ep, purpose, lv, split == task.HeldOut)
						w := key.Block(round, ep, 0, rng.PurposeLevel)
						if err := enc.Encode(map[string]any{"seed": seed, "round": round, "episode": ep, "purpose": purpose,
							"level": lv, "held_out": split == task.HeldOut, "digits": in.Digits[:in.Vars],
							"level_word": w[0], "uniform_step3": key.Uniform(round, ep, 3, rng.PurposeAction)}); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}

// greedy: the CPU engine's greedy programs of the checkpoint's model on n
// instances per level and split (drawn from the seed's evaluation stream).
func greedy(enc *json.Encoder, path string, n int, seed uint64) error {
	f, err := checkpoint.ReadFile(path)
	if err != nil {
		return err
	}
	cfg, err := trainer.ReadCheckpointConfig(f)
	if err != nil {
		return err
	}
	cfg.Threads = 1
	e, err := cpu.New(cfg)
	if err != nil {
		return err
	}
	defer e.Close()
	tr, err := trainer.New(cfg, e.Task(), e)
	if err != nil {
		return err
	}
	if err := tr.LoadWeights(f); err != nil {
		return err
	}
	t := e.Task()
	key := rng.NewKey(seed)
	var ins []task.Instance
	for lv := range t.Levels() {
		for _, split := range []task.Split{task.HeldOut, task.Training} {
			for i := 0; i < n; i++ {
				ins = append(ins, t.Draw(key, 11, uint32(len(ins)), enginekit.EvalPurpose(lv), lv, split))
			}
		}
	}
	progs, err := e.GreedyPrograms(ins)
	if err != nil {
		return err
	}
	T := cfg.Steps
	for i, in := range ins {
		o := task.Score(t, &ins[i], progs[i*T:(i+1)*T])
		if err := enc.Encode(map[string]any{"level": in.Level, "digits": in.Context[:in.NContext], "budget": in.Budget,
			"program": progs[i*T : (i+1)*T], "reward": o.Reward, "correct": o.Correct}); err != nil {
			return err
		}
	}
	return nil
}
