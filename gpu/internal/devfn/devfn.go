//go:build cgo

package devfn

/*
#cgo CFLAGS: -O2 -std=c99
#cgo LDFLAGS: -lm
#include <stdlib.h>
#include "../../kernels/philox.cuh"
#include "../../kernels/env.cuh"
#include "../../kernels/calc.cuh"
#include "../../kernels/tape.cuh"
#include "../../kernels/policy.cuh"
#include "../../kernels/gru.cuh"
#include "../../kernels/loss.cuh"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Philox is simdrl_philox.
func Philox(ctr [4]uint32, key [2]uint32) [4]uint32 {
	var out [4]C.uint32_t
	C.simdrl_philox(C.uint32_t(ctr[0]), C.uint32_t(ctr[1]), C.uint32_t(ctr[2]), C.uint32_t(ctr[3]), C.uint32_t(key[0]), C.uint32_t(key[1]), &out[0])
	return [4]uint32{uint32(out[0]), uint32(out[1]), uint32(out[2]), uint32(out[3])}
}

// Uniform is simdrl_uniform.
func Uniform(key [2]uint32, round, episode, step, purpose uint32) float32 {
	return float32(C.simdrl_uniform(C.uint32_t(key[0]), C.uint32_t(key[1]), C.uint32_t(round), C.uint32_t(episode), C.uint32_t(step), C.uint32_t(purpose)))
}

// RecordWords is SIMDRL_TASK_WORDS, the int32 of an instance record.
const RecordWords = C.SIMDRL_TASK_WORDS

// RecordLayout is the record's word offsets (SIMDRL_REC_*): level, vars,
// budget, digits, target, ninner, inner, item, nshown, shown, then the
// record's length and the op table's words per token.
func RecordLayout() [12]int {
	return [12]int{C.SIMDRL_REC_LEVEL, C.SIMDRL_REC_VARS, C.SIMDRL_REC_BUDGET, C.SIMDRL_REC_DIGITS, C.SIMDRL_REC_TARGET,
		C.SIMDRL_REC_NINNER, C.SIMDRL_REC_INNER, C.SIMDRL_REC_ITEM, C.SIMDRL_REC_NSHOWN, C.SIMDRL_REC_SHOWN,
		C.SIMDRL_TASK_WORDS, C.SIMDRL_OP_WORDS}
}

// RecordLimits are SIMDRL_MAX_DIGITS, SIMDRL_MAX_INNER and SIMDRL_MAX_SHOWN.
func RecordLimits() [3]int {
	return [3]int{C.SIMDRL_MAX_DIGITS, C.SIMDRL_MAX_INNER, C.SIMDRL_MAX_SHOWN}
}

// Context is the policy's context of a record as the kernels read it
// (simdrl_rec_ctx_len, simdrl_rec_ctx), the end not counted.
func Context(rec []int32) []int32 {
	r := i32s(rec[:RecordWords])
	n := int(C.simdrl_rec_ctx_len(r))
	at := (uintptr(unsafe.Pointer(C.simdrl_rec_ctx(r))) - uintptr(unsafe.Pointer(r))) / 4 // the word it points at
	return append([]int32{}, rec[at:int(at)+n]...)
}

// ContextToken is simdrl_rec_ctx_tok: the record's context token k in a
// vocabulary of V.
func ContextToken(rec []int32, k, V int) int {
	return int(C.simdrl_rec_ctx_tok(i32s(rec[:RecordWords]), C.int(k), C.int(V)))
}

// RecordClamped is simdrl_rec_clamp: the record as the rollout reads its
// copy.
func RecordClamped(rec []int32, V int) []int32 {
	out := append([]int32{}, rec[:RecordWords]...)
	C.simdrl_rec_clamp(i32s(out), C.int(V))
	return out
}

// Stage is simdrl_stage.
func Stage(level, S int) int { return int(C.simdrl_stage(C.int(level), C.int(S))) }

// Input is simdrl_input: the token table's row of token a observed as obs,
// of O observations.
func Input(a, O, obs int) int { return int(C.simdrl_input(C.int(a), C.int(O), C.int(obs))) }

// OpEncoding is calc.cuh's numbering of the op table: the kinds none, set,
// add, sub, mul, sub-from, answer, neg, swap; the sources none, operand, v,
// m; the registers v, m.
func OpEncoding() (kinds [9]int32, sources [4]int32, registers [2]int32) {
	kinds = [9]int32{C.SIMDRL_KIND_NONE, C.SIMDRL_KIND_SET, C.SIMDRL_KIND_ADD, C.SIMDRL_KIND_SUB, C.SIMDRL_KIND_MUL, C.SIMDRL_KIND_SUB_FROM, C.SIMDRL_KIND_ANSWER,
		C.SIMDRL_KIND_NEG, C.SIMDRL_KIND_SWAP}
	sources = [4]int32{C.SIMDRL_SRC_NONE, C.SIMDRL_SRC_OPERAND, C.SIMDRL_SRC_V, C.SIMDRL_SRC_M}
	registers = [2]int32{C.SIMDRL_REG_V, C.SIMDRL_REG_M}
	return
}

// DrawTask is simdrl_draw_task: the seed task's instance record.
func DrawTask(key [2]uint32, round, episode, purpose uint32, level int) [RecordWords]int32 {
	var t [RecordWords]C.int32_t
	C.simdrl_draw_task(C.uint32_t(key[0]), C.uint32_t(key[1]), C.uint32_t(round), C.uint32_t(episode), C.uint32_t(purpose), C.int(level), &t[0])
	var out [RecordWords]int32
	for i := range t {
		out[i] = int32(t[i])
	}
	return out
}

// DrawLevel is simdrl_draw_level.
func DrawLevel(key [2]uint32, round, episode uint32, mix, unlocked int, cdf0, cdf1 float64) int {
	return int(C.simdrl_draw_level(C.uint32_t(key[0]), C.uint32_t(key[1]), C.uint32_t(round), C.uint32_t(episode), C.int(mix), C.int(unlocked), C.double(cdf0), C.double(cdf1)))
}

// EnvRun is simdrl_env_run on a seed task's record and a program.
func EnvRun(rec []int32, actions []int32) (reward float64, steps int, correct bool) {
	o := C.simdrl_env_run(i32s(rec[:RecordWords]), i32s(actions), 1, C.int(len(actions)))
	return float64(o.reward), int(o.steps), o.correct != 0
}

// CalcRun is simdrl_calc_run on a record, an op table (three int32 per
// token) and a program.
func CalcRun(rec []int32, ops []int32, partialCredit float64, actions []int32) (reward float64, steps int, answered, correct bool) {
	o := C.simdrl_calc_run(i32s(rec[:RecordWords]), i32s(ops), C.int(len(ops)/C.SIMDRL_OP_WORDS), C.double(partialCredit), i32s(actions), 1, C.int(len(actions)))
	return float64(o.reward), int(o.steps), o.answered != 0, o.correct != 0
}

// Scorers are common.cuh's SIMDRL_SCORE_SEED and SIMDRL_SCORE_CALC.
const (
	ScoreSeed = C.SIMDRL_SCORE_SEED
	ScoreCalc = C.SIMDRL_SCORE_CALC
)

// ScoreEnds is simdrl_score_ends: whether scorer's episode of rec, not
// ended before its n-th token act, ends at it (ops: the calculator's op
// table, three int32 per token; nil for the seed).
func ScoreEnds(scorer int, rec, ops []int32, act int32, n int) bool {
	return C.simdrl_score_ends(C.int(scorer), i32s(rec[:RecordWords]), i32s(ops), C.int(len(ops)/C.SIMDRL_OP_WORDS), C.int(act), C.int(n)) != 0
}

// Step is one step's reward and done flag, the tokens consumed after it and
// the observation it returns (NoObs when the task observes nothing).
type Step struct {
	Reward float64
	Done   bool
	Steps  int
	Obs    int32
}

// NoObs is SIMDRL_NO_OBS (task.NoObservation).
const NoObs = C.SIMDRL_NO_OBS

// ObserveEncoding is calc.cuh's numbering of the observation kinds (none,
// signs) and the signs observation's vocabulary size.
func ObserveEncoding() (none, signs int32, n int) {
	return C.SIMDRL_OBSERVE_NONE, C.SIMDRL_OBSERVE_SIGNS, C.SIMDRL_SIGNS_OBS
}

// EnvSteps resets env.cuh's episode state from a seed task's record and
// steps it with every action in turn (also after the end): each step's
// simdrl_env_step result, and whether the episode ended correct.
func EnvSteps(rec []int32, actions []int32) (steps []Step, correct bool) {
	s := C.simdrl_env_reset(i32s(rec[:RecordWords]))
	for _, a := range actions {
		st := C.simdrl_env_step(&s, C.int(a))
		steps = append(steps, Step{Reward: float64(st.reward), Done: st.done != 0, Steps: int(s.steps), Obs: int32(st.obs)})
	}
	return steps, s.correct != 0
}

// CalcSteps resets calc.cuh's episode state from a record, an op table, the
// partial credit and the observation kind (SIMDRL_OBSERVE_*), and steps it
// with every action in turn (also after the end, with rec and ops pinned:
// the state points at them): the reset's observation (simdrl_calc_obs), each
// step's simdrl_calc_step result, and the answered and correct flags at the
// end.
func CalcSteps(rec []int32, ops []int32, partialCredit float64, observe int32, actions []int32) (first int32, steps []Step, answered, correct bool) {
	// The state holds pointers to rec and ops.
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&rec[0])
	pin.Pin(&ops[0])
	s := C.simdrl_calc_reset(i32s(rec[:RecordWords]), i32s(ops), C.int(len(ops)/C.SIMDRL_OP_WORDS), C.double(partialCredit), C.int(observe))
	first = int32(C.simdrl_calc_obs(&s))
	for _, a := range actions {
		st := C.simdrl_calc_step(&s, C.int(a))
		steps = append(steps, Step{Reward: float64(st.reward), Done: st.done != 0, Steps: int(s.steps), Obs: int32(st.obs)})
	}
	return first, steps, s.answered != 0, s.correct != 0
}

// TapeSteps resets tape.cuh's machine from a record (its data as
// record.PackData writes them), the variant's SIMDRL_TAPE_* bits and the
// partial credit, and steps it with every action in turn (also after the
// end), each action's tool read from tools (one per token, as the op
// table's first word): the reset's observation, each step's
// simdrl_tape_step result, and the answered and correct flags at the end.
func TapeSteps(rec []int32, tools []int32, variant int, partialCredit float64, actions []int32) (first int32, steps []Step, answered, correct bool) {
	ops := make([]int32, C.SIMDRL_OP_WORDS*len(tools))
	for i, t := range tools {
		ops[C.SIMDRL_OP_WORDS*i] = t
	}
	s := (*C.simdrl_tape_state)(C.calloc(1, C.size_t(unsafe.Sizeof(C.simdrl_tape_state{}))))
	defer C.free(unsafe.Pointer(s))
	C.simdrl_tape_reset(s, i32s(rec[:RecordWords]), C.int(variant), C.double(partialCredit))
	first = int32(C.simdrl_tape_obs(s))
	for _, a := range actions {
		st := C.simdrl_tape_step(s, i32s(ops), C.int(len(tools)), C.int(a))
		steps = append(steps, Step{Reward: float64(st.reward), Done: st.done != 0, Steps: int(s.steps), Obs: int32(st.obs)})
	}
	return first, steps, s.answered != 0, C.simdrl_tape_correct(s) != 0
}

// TapeLayout is tape.cuh's bounds and data layout: most cells, values,
// operator entries, packed words; the data's target, word-count and words
// offsets; the record's data word and its most int64 words; the machine's
// bytes.
func TapeLayout() [10]int {
	return [10]int{C.SIMDRL_TAPE_MAX_CELLS, C.SIMDRL_TAPE_MAX_VALUES, C.SIMDRL_TAPE_MAX_OPS, C.SIMDRL_TAPE_PACKED_WORDS,
		C.SIMDRL_TAPE_DATA_TARGET, C.SIMDRL_TAPE_DATA_NWORDS, C.SIMDRL_TAPE_DATA_WORDS, C.SIMDRL_REC_DATA, C.SIMDRL_MAX_DATA,
		C.SIMDRL_TAPE_STATE_BYTES}
}

// TapeVariantBits are SIMDRL_TAPE_LOOSE, _BLIND, _UNSTACKED, _BRANCHING and
// _HEADLESS.
func TapeVariantBits() [5]int {
	return [5]int{C.SIMDRL_TAPE_LOOSE, C.SIMDRL_TAPE_BLIND, C.SIMDRL_TAPE_UNSTACKED, C.SIMDRL_TAPE_BRANCHING, C.SIMDRL_TAPE_HEADLESS}
}

// i32s is x's first element for C, or NULL when x is empty.
func i32s(x []int32) *C.int32_t {
	if len(x) == 0 {
		return nil
	}
	return (*C.int32_t)(unsafe.Pointer(&x[0]))
}

// PolicyRow runs policy.cuh's phases on one row as the rollout kernel does:
// logp and the entropy.
func PolicyRow(x []float32) ([]float32, float32) {
	V := len(x)
	lp, p, ex, term := make([]float32, V), make([]float32, V), make([]float32, V), make([]float32, V)
	mx := C.simdrl_row_max((*C.float)(unsafe.Pointer(&x[0])), C.int(V))
	for j := range x {
		ex[j] = float32(C.simdrl_shifted_exp(C.float(x[j]), mx))
	}
	lse := C.simdrl_row_lse(mx, (*C.float)(unsafe.Pointer(&ex[0])), C.int(V))
	for j := range x {
		c := C.simdrl_policy_col(C.float(x[j]), lse)
		lp[j], p[j], term[j] = float32(c.logp), float32(c.p), float32(c.term)
	}
	return lp, float32(C.simdrl_row_entropy((*C.float)(unsafe.Pointer(&term[0])), C.int(V)))
}

// SampleRow is simdrl_sample_probs on p = exp(logp) (as simdrl_policy_col
// computes it); ArgmaxRow is simdrl_argmax_row.
func SampleRow(logp []float32, u float32) int {
	p := make([]float32, len(logp))
	for j, l := range logp {
		p[j] = float32(C.expf(C.float(l)))
	}
	return int(C.simdrl_sample_probs((*C.float)(unsafe.Pointer(&p[0])), C.int(len(p)), C.float(u)))
}
func ArgmaxRow(x []float32) int {
	return int(C.simdrl_argmax_row((*C.float)(unsafe.Pointer(&x[0])), C.int(len(x))))
}

// PolicyDlogits is the backward of one row from simdrl_entropy_g and simdrl_policy_dlogit.
func PolicyDlogits(logp []float32, action int, dl, de float32) []float32 {
	V := len(logp)
	p, g := make([]float32, V), make([]float32, V)
	var pg float32
	for j, l := range logp {
		p[j] = float32(C.expf(C.float(l)))
		g[j] = float32(C.simdrl_entropy_g(C.float(p[j])))
		pg += p[j] * g[j]
	}
	out := make([]float32, V)
	for j := range out {
		isA := C.int(0)
		if j == action {
			isA = 1
		}
		out[j] = float32(C.simdrl_policy_dlogit(C.float(p[j]), C.float(g[j]), C.float(pg), C.float(dl), C.float(de), isA))
	}
	return out
}

// GRUUnit is simdrl_gru_unit: h' and (r, z, n).
func GRUUnit(gi, gh [3]float32, hp float32) (h float32, rzn [3]float32) {
	var r, z, n C.float
	h = float32(C.simdrl_gru_unit(C.float(gi[0]), C.float(gi[1]), C.float(gi[2]), C.float(gh[0]), C.float(gh[1]), C.float(gh[2]), C.float(hp), &r, &z, &n))
	return h, [3]float32{float32(r), float32(z), float32(n)}
}

// GRUUnitBack is simdrl_gru_unit_back.
func GRUUnitBack(rzn [3]float32, ghn, hp, dh float32) (dg, dt [3]float32, dhp float32) {
	var g, tt [3]C.float
	dhp = float32(C.simdrl_gru_unit_back(C.float(rzn[0]), C.float(rzn[1]), C.float(rzn[2]), C.float(ghn), C.float(hp), C.float(dh), &g[0], &tt[0]))
	for i := 0; i < 3; i++ {
		dg[i], dt[i] = float32(g[i]), float32(tt[i])
	}
	return
}

// EpisodeLoss is simdrl_episode_loss for one episode (arrays of T steps).
func EpisodeLoss(logpa, val, ent []float32, reward float32, batch int, vc, ec float64, step bool, last int) (pg, value, entropy float64, dlogp, dent, dval []float32) {
	T := len(logpa)
	dlogp, dent, dval = make([]float32, T), make([]float32, T), make([]float32, T)
	sb := C.int(0)
	if step {
		sb = 1
	}
	f := func(x []float32) *C.float { return (*C.float)(unsafe.Pointer(&x[0])) }
	o := C.simdrl_episode_loss(C.int(T), 1, f(logpa), f(val), f(ent), C.float(reward), C.int(batch), C.double(vc), C.double(ec), sb, C.int(last), f(dlogp), f(dent), f(dval))
	return float64(o.pg), float64(o.value), float64(o.entropy), dlogp, dent, dval
}

// Estimators are loss.cuh's numbers of the estimators (SIMDRL_EST_*).
type Estimators struct{ Sum, Step, RLOO, GRPO, DrGRPO int }

// EstimatorCodes is loss.cuh's SIMDRL_EST_*.
func EstimatorCodes() Estimators {
	return Estimators{C.SIMDRL_EST_SUM, C.SIMDRL_EST_STEP, C.SIMDRL_EST_RLOO, C.SIMDRL_EST_GRPO, C.SIMDRL_EST_DRGRPO}
}

// GroupIs is simdrl_group_is.
func GroupIs(estimator int) bool { return C.simdrl_group_is(C.int(estimator)) != 0 }

// GroupLoss is simdrl_group_loss on n episodes of T steps laid out
// step-major (step t of episode b at t*n + b), in groups of group.
func GroupLoss(estimator, n, T, group, batch int, logpa, val, ent, returns []float32, end []int32, vc, ec float64, mask bool) (pg, value, entropy float64, dlogp, dent, dval []float32) {
	dlogp, dent, dval = make([]float32, n*T), make([]float32, n*T), make([]float32, n*T)
	m := C.int(0)
	if mask {
		m = 1
	}
	f := func(x []float32) *C.float { return (*C.float)(unsafe.Pointer(&x[0])) }
	o := C.simdrl_group_loss(C.int(estimator), C.int(n), C.int(T), C.int(n), f(logpa), f(val), f(ent), f(returns), i32s(end), C.int(group), C.int(batch),
		C.double(vc), C.double(ec), m, f(dlogp), f(dent), f(dval))
	return float64(o.pg), float64(o.value), float64(o.entropy), dlogp, dent, dval
}

// GroupFlat is simdrl_group_flat on one group's returns.
func GroupFlat(returns []float32) bool {
	return C.simdrl_group_flat((*C.float)(unsafe.Pointer(&returns[0])), C.int(len(returns))) != 0
}

// Stats is common.cuh's columns of a block's statistics (SIMDRL_STAT_*,
// then SIMDRL_NSTATS).
func Stats() []int {
	return []int{C.SIMDRL_STAT_REWARD, C.SIMDRL_STAT_SOLVED, C.SIMDRL_STAT_PG, C.SIMDRL_STAT_VALUE, C.SIMDRL_STAT_ENTROPY, C.SIMDRL_STAT_FLAT,
		C.SIMDRL_NSTATS}
}

// Fin is common.cuh's slots of what simdrl_finish writes (SIMDRL_FIN_*).
func Fin() []int {
	return []int{C.SIMDRL_FIN_REWARD, C.SIMDRL_FIN_SOLVED, C.SIMDRL_FIN_PG, C.SIMDRL_FIN_VALUE, C.SIMDRL_FIN_ENTROPY, C.SIMDRL_FIN_FLAT,
		C.SIMDRL_FIN_SUMSQ, C.SIMDRL_FIN_NORM, C.SIMDRL_FIN_SCALE, C.SIMDRL_FIN_OK}
}

// Layout is simdrl_layout_of: the offsets of the ten tensors and the size.
func Layout(V, d, S int) [11]int {
	l := C.simdrl_layout_of(C.int(V), C.int(d), C.int(S))
	return [11]int{int(l.emb), int(l.level_emb), int(l.wih), int(l.whh), int(l.bih), int(l.bhh), int(l.piw), int(l.pib), int(l.vw), int(l.vb), int(l.size)}
}

// LayoutObs is simdrl_layout_obs with O observations: obs_emb's offset, the
// size, and the token table's rows (simdrl_input_rows).
func LayoutObs(V, d, S, O int) (obs, size, rows int) {
	l := C.simdrl_layout_obs(C.int(V), C.int(d), C.int(S), C.int(O))
	return int(l.obs), int(l.size), int(C.simdrl_input_rows(C.int(V), C.int(O)))
}
