// Package abi is the GPU calling convention, written once: every kernel's
// parameters in launch order with their C types, and the dynamic shared
// memory the rollout and backward kernels carve, region by region. The
// kernels take their parameter lists and carvings from kernels/args.cuh,
// which Header writes from this table (go generate ./gpu/); the host packs
// its arguments by name and every launch is checked against the table
// (gpu/args.go), and plan.go sizes shared memory from it. Adding a parameter
// is one edit here, then using it in the kernel and passing it on the host;
// the tests fail until both sides agree.
package abi

import (
	"fmt"
	"strings"
)

// Param is one kernel parameter: its name (the C name, and the name the
// host packs it under) and its C type, spelled as the kernel declares it
// (qualifiers such as __restrict__ change the generated code).
type Param struct{ Name, C string }

// Decl is the parameter as C declares it: "int n", "float *out".
func (p Param) Decl() string {
	if strings.HasSuffix(p.C, "*") {
		return p.C + p.Name
	}
	return p.C + " " + p.Name
}

// Region is one region of dynamic shared memory (simdrl_carve): a pointer
// Name of type C*, Factors elements (their product; each a variable in the
// kernel's scope or a macro of common.cuh), empty when Cond (a parameter) is
// zero.
type Region struct {
	Name, C string
	Factors []string
	Cond    string
	Doc     string // the layout, for the header's comment
}

// Kernel is a family of entry points sharing one parameter list.
type Kernel struct {
	Macro   string   // SIMDRL_<Macro>_PARAMS, _ARGS and, with Smem, _SMEM(cv)
	Module  string   // kernels/<Module>.cu, ptx/<Module>.ptx
	Entries []string // the extern "C" kernels
	Params  []Param
	Smem    []Region
}

// C types used below.
const (
	in    = "const float *__restrict__" // read-only float32 buffer
	inI   = "const int32_t *__restrict__"
	inD   = "const double *__restrict__"
	out   = "float *"
	outI  = "int32_t *"
	outD  = "double *"
	cI    = "int"
	cU    = "uint32_t"
	cF    = "float"
	cD    = "double"
	ptrI  = "const int32_t *" // read-only, may alias
	ptrIn = "const float *"
)

func p(name, c string) Param { return Param{name, c} }

// region: bytes are the element size times the factors.
func region(name, c, doc string, factors ...string) Region {
	return Region{Name: name, C: c, Factors: factors, Doc: doc}
}

// Kernels lists every kernel, module by module in the order they are loaded.
var Kernels = []Kernel{
	{Macro: "DRAW_TASKS", Module: "tasks", Entries: []string{"simdrl_draw_tasks"}, Params: []Param{
		p("k0", cU), p("k1", cU), p("round", cU), p("purpose", cU), p("fixed_level", cI), p("mix", cI), p("unlocked", cI),
		p("cdf0", cD), p("cdf1", cD), p("n", cI), p("tasks", outI)}},
	{Macro: "ACTION_UNIFORMS", Module: "tasks", Entries: []string{"simdrl_action_uniforms"}, Params: []Param{
		p("k0", cU), p("k1", cU), p("round", cU), p("n", cI), p("T", cI), p("u", out)}},
	{Macro: "ENV_SCORE", Module: "env", Entries: []string{"simdrl_env_score"}, Params: []Param{
		p("scorer", cI), p("ops", ptrI), p("V", cI), p("partial_credit", cD), p("tasks", ptrI), p("actions", ptrI),
		p("len", ptrI), p("n", cI), p("maxlen", cI), p("reward", outD), p("steps", outI), p("correct", outI)}},
	{Macro: "DERIVE", Module: "rollout", Entries: []string{"simdrl_derive"}, Params: []Param{
		p("P", in), p("d", cI), p("V", cI), p("S", cI), p("O", cI), p("not_action", in), p("table", out), p("whhT", out),
		p("headsT", out), p("headsN", out), p("headsB", out)}},
	{Macro: "ROLLOUT", Module: "rollout", Entries: []string{"simdrl_rollout_e1", "simdrl_rollout_e2", "simdrl_rollout_e4", "simdrl_rollout_e8",
		"simdrl_rollout_read_e1", "simdrl_rollout_read_e2", "simdrl_rollout_read_e4", "simdrl_rollout_read_e8",
		"simdrl_rollout_tape_e1", "simdrl_rollout_tape_e2", "simdrl_rollout_tape_e4", "simdrl_rollout_tape_e8"},
		Params: []Param{
			p("P", in), p("table", in), p("whhT", in), p("headsT", in), p("headsB", in),
			p("B", cI), p("T", cI), p("R", cI), p("d", cI), p("V", cI), p("S", cI), p("use_smem_w", cI),
			p("scorer", cI), p("ops", inI), p("partial_credit", cD), p("O", cI), p("observe", cI), p("ctx_end", cI),
			p("k0", cU), p("k1", cU), p("round", cU), p("purpose", cU), p("fixed_level", cI), p("mix", cI), p("unlocked", cI),
			p("cdf0", cD), p("cdf1", cD), p("group", cI),
			p("mode", cI), p("given_tasks", cI), p("train", cI), p("estimator", cI), p("mask", cI),
			p("value_coef", cD), p("entropy_coef", cD), p("loss_batch", cI), p("rewards_in", ptrIn),
			p("h", out), p("act", out), p("ghn", out), p("logp", out), p("logpa", out), p("val", out), p("ent", out),
			p("tokens", outI), p("inputs", outI), p("tasks", outI), p("dlogp", out), p("dent", out), p("dval", out), p("block_stats", outD),
			p("outcome", outD), p("machines", outD), p("ep_return", out), p("ep_end", outI), p("until_done", cI), p("steps_run", outI)},
		Smem: []Region{
			region("sStat", "double", "E×NSTATS", "E", "SIMDRL_NSTATS"),
			region("sTask", "int32_t", "E×TASK_WORDS", "E", "SIMDRL_TASK_WORDS"),
			region("sTok", "int32_t", "E", "E"),
			{Name: "sW", C: "float", Factors: []string{"d", "G3"}, Cond: "use_smem_w", Doc: "d×3d (use_smem_w)"},
			region("sHT", "float", "d×(V+1)", "d", "V1"),
			region("sHB", "float", "V+1", "V1"),
			region("sBhh", "float", "3d", "G3"),
			region("sH0", "float", "E×dS", "E", "dS"),
			region("sH1", "float", "E×dS", "E", "dS"),
			region("sHeads", "float", "E×(V+1)", "E", "V1"),
			region("sLogp", "float", "E×V", "E", "V"),
			region("sP", "float", "E×V: exp(x−max), then p", "E", "V"),
			region("sEnt", "float", "E×V: p·log(p+ε)", "E", "V"),
			region("sMax", "float", "E: max, then log-sum-exp", "E"),
			{Name: "sCalc", C: "double", Factors: []string{"E", "SIMDRL_CALC_SLOT_DOUBLES"}, Cond: "O",
				Doc: "E×simdrl_calc_slot: each episode's machine, stepped inside the loop (O > 0)"},
		}},
	{Macro: "ESTIMATE", Module: "rollout", Entries: []string{"simdrl_estimate"}, Params: []Param{
		p("estimator", cI), p("B", cI), p("T", cI), p("group", cI), p("mask", cI), p("value_coef", cD), p("entropy_coef", cD), p("loss_batch", cI),
		p("logpa", in), p("val", in), p("ent", in), p("ep_return", in), p("ep_end", inI), p("dlogp", out), p("dent", out), p("dval", out),
		p("block_stats", outD)}},
	{Macro: "BACKWARD", Module: "backward", Entries: []string{"simdrl_backward_e1", "simdrl_backward_e2", "simdrl_backward_e4", "simdrl_backward_e8",
		"simdrl_backward_read_e1", "simdrl_backward_read_e2", "simdrl_backward_read_e4", "simdrl_backward_read_e8"},
		Params: []Param{
			p("P", in), p("headsN", in), p("B", cI), p("T", cI), p("R", cI), p("d", cI), p("V", cI), p("S", cI), p("use_smem_w", cI),
			p("tasks", inI), p("h", in), p("act", in), p("ghn", in), p("logp", in), p("tokens", inI), p("dlogp", in), p("dent", in), p("dval", in),
			p("ends", inI), p("dheads", out), p("dgh", out), p("dgin", out), p("dh0g", out)},
		Smem: []Region{
			{Name: "sW", C: "float", Factors: []string{"G3", "d"}, Cond: "use_smem_w", Doc: "3d×d, W_hh as stored (use_smem_w)"},
			region("sHW", "float", "(V+1)×d", "V1", "d"),
			region("sDh", "float", "E×d", "E", "d"),
			region("sDhp", "float", "E×d", "E", "d"),
			region("sDgh", "float", "E×G3S (rows padded to 4 floats)", "E", "G3S"),
			region("sX", "float", "E×(V+1): p, then dlogits", "E", "V1"),
			region("sG", "float", "E×V", "E", "V"),
			region("sPg", "float", "E", "E"),
		}},
	{Macro: "GEMM_TN", Module: "backward", Entries: []string{"simdrl_gemm_tn_m96", "simdrl_gemm_tn_m32"}, Params: []Param{
		p("A", in), p("lda", cI), p("Bm", in), p("ldb", cI), p("M", cI), p("N", cI), p("ones", cI), p("R", cI), p("slab", cI), p("part", out)}},
	{Macro: "SUM_SLABS", Module: "backward", Entries: []string{"simdrl_sum_slabs"}, Params: []Param{
		p("part", in), p("S", cI), p("M", cI), p("N", cI), p("ones", cI), p("split", cI), p("out", out), p("ldo", cI),
		p("bias", out), p("out2", out), p("bias2", out)}},
	{Macro: "TOKEN_PARTIAL", Module: "backward", Entries: []string{"simdrl_token_partial"}, Params: []Param{
		p("dgh", in), p("dgin", in), p("tokens", inI), p("R", cI), p("G3", cI), p("V", cI), p("slab", cI), p("part", out)}},
	{Macro: "H0_PARTIAL", Module: "backward", Entries: []string{"simdrl_h0_partial"}, Params: []Param{
		p("dh0g", in), p("tasks", inI), p("B", cI), p("d", cI), p("V", cI), p("S", cI), p("read", cI), p("ctx_end", cI), p("slab", cI), p("part", out)}},
	{Macro: "INPUT_GRADS", Module: "backward", Entries: []string{"simdrl_input_grads"}, Params: []Param{
		p("P", in), p("dT", in), p("h0s", in), p("d", cI), p("V", cI), p("S", cI), p("O", cI), p("grad", out)}},
	{Macro: "SUMSQ_PARTIAL", Module: "optim", Entries: []string{"simdrl_sumsq_partial"}, Params: []Param{
		p("g", in), p("n", cI), p("part", outD)}},
	{Macro: "FINISH", Module: "optim", Entries: []string{"simdrl_finish"}, Params: []Param{
		p("sq", inD), p("nsq", cI), p("stats", inD), p("nblocks", cI), p("clip", cD), p("value_coef", cD), p("entropy_coef", cD),
		p("extra_loss", cD), p("fin", outD)}},
	{Macro: "ADAM", Module: "optim", Entries: []string{"simdrl_adam"}, Params: []Param{
		p("p", out), p("g", in), p("m", out), p("v", out), p("n", cI), p("fin", inD), p("beta1", cF), p("beta2", cF), p("eps", cF),
		p("step_size", cF), p("bc2_sqrt", cF)}},
	{Macro: "ADD", Module: "optim", Entries: []string{"simdrl_add"}, Params: []Param{
		p("x", in), p("n", cI), p("y", out)}},
	// A task whose game the host steps (gpu/hoststep.go): h0, then one policy step at a time.
	{Macro: "HOST_START", Module: "hoststep", Entries: []string{"simdrl_host_start"}, Params: []Param{
		p("P", in), p("V", cI), p("d", cI), p("S", cI), p("B", cI), p("ctx_end", cI), p("tasks", inI), p("h", out), p("tokens", outI)}},
	{Macro: "HOST_STEP", Module: "hoststep", Entries: []string{"simdrl_host_step"}, Params: []Param{
		p("P", in), p("table", in), p("whhT", in), p("headsT", in), p("headsB", in),
		p("B", cI), p("d", cI), p("V", cI), p("S", cI), p("NV", cI), p("t", cI), p("mode", cI), p("train", cI),
		p("k0", cU), p("k1", cU), p("round", cU), p("in_rows", inI), p("legal", inI), p("h_in", in), p("h_out", out),
		p("act", out), p("ghn", out), p("logp", out), p("logpa", out), p("val", out), p("ent", out), p("actions", outI)},
		Smem: []Region{
			region("sH", "float", "dS: h_t", "dS"),
			region("sHn", "float", "dS: h_{t+1}", "dS"),
			region("sHeads", "float", "V+1", "V1"),
			region("sLogp", "float", "V", "V"),
			region("sP", "float", "V: exp(x−max), then p", "V"),
			region("sEnt", "float", "V: p·log(p+ε)", "V"),
			region("sMax", "float", "1: max, then log-sum-exp", "E"),
		}},
	// -estimator ppo (gpu/ppo.go)
	{Macro: "PPO_WEIGHTS", Module: "ppo", Entries: []string{"simdrl_ppo_weights"}, Params: []Param{
		p("S", cI), p("T", cI), p("mb", inI), p("old_logp", in), p("old_val", in), p("adv", in), p("ret", in), p("end", inI),
		p("adv_mean", cD), p("adv_scale", cD), p("steps", cD), p("clip", cD), p("clip_v", cI), p("value_coef", cD), p("entropy_coef", cD),
		p("logpa", in), p("val", in), p("ent", in), p("dlogp", out), p("dent", out), p("dval", out), p("sums", outD)}},
	// Observation fields and the float vector of a host-stepped task (gpu/fields.go).
	{Macro: "DERIVE_FIELDS", Module: "fields", Entries: []string{"simdrl_derive_fields"}, Params: []Param{
		p("P", in), p("d", cI), p("V", cI), p("S", cI), p("FR", cI), p("F", cI), p("fe", cI), p("vw", cI), p("vb", cI),
		p("table", out), p("vecM", out)}},
	{Macro: "FIELD_GATES", Module: "fields", Entries: []string{"simdrl_field_gates"}, Params: []Param{
		p("table", in), p("vecM", in), p("B", cI), p("d", cI), p("V", cI), p("nf", cI), p("F", cI), p("offs", inI),
		p("in_rows", inI), p("fields", inI), p("vec", in), p("gates", out)}},
	{Macro: "FIELD_PARTIAL", Module: "fields", Entries: []string{"simdrl_field_partial"}, Params: []Param{
		p("dgh", in), p("dgin", in), p("fields", inI), p("offs", inI), p("R", cI), p("G3", cI), p("nf", cI), p("FR", cI),
		p("slab", cI), p("part", out)}},
	{Macro: "VEC_GRAD", Module: "fields", Entries: []string{"simdrl_vec_grad"}, Params: []Param{
		p("dgh", in), p("dgin", in), p("vec", in), p("R", cI), p("G3", cI), p("F", cI), p("dM", out)}},
	{Macro: "FIELD_GRADS", Module: "fields", Entries: []string{"simdrl_field_grads"}, Params: []Param{
		p("P", in), p("dT", in), p("dF", in), p("dM", in), p("d", cI), p("V", cI), p("S", cI), p("FR", cI), p("F", cI),
		p("fe", cI), p("vw", cI), p("vb", cI), p("grad", out)}},
}

// Kind is how the host packs a parameter of C type c (gpu/args.go): 'p' a
// device pointer, 'i' int, 'u' uint32_t, 'f' float, 'd' double.
func Kind(c string) (byte, error) {
	for _, ch := range c {
		if ch == '*' {
			return 'p', nil
		}
	}
	switch c {
	case "int", "int32_t":
		return 'i', nil
	case "uint32_t":
		return 'u', nil
	case "float":
		return 'f', nil
	case "double":
		return 'd', nil
	}
	return 0, fmt.Errorf("abi: no kind for C type %q", c)
}

// Width is the bytes a parameter of kind k takes (as PTX declares it).
func Width(k byte) int {
	if k == 'p' || k == 'd' {
		return 8
	}
	return 4
}

var byEntry = func() map[string]*Kernel {
	m := map[string]*Kernel{}
	for i := range Kernels {
		for _, e := range Kernels[i].Entries {
			m[e] = &Kernels[i]
		}
	}
	return m
}()

// Of returns the kernel family of entry point name, or nil.
func Of(name string) *Kernel { return byEntry[name] }

// Module is a PTX module and the entry points the host loads from it.
type Module struct {
	Name    string
	Kernels []string
}

// Modules lists the modules in the table's order.
func Modules() []Module {
	var ms []Module
	for _, k := range Kernels {
		if len(ms) == 0 || ms[len(ms)-1].Name != k.Module {
			ms = append(ms, Module{Name: k.Module})
		}
		ms[len(ms)-1].Kernels = append(ms[len(ms)-1].Kernels, k.Entries...)
	}
	return ms
}

// SmemBytes is the dynamic shared memory of k's carving: each region rounded
// up to 16 bytes, as simdrl_carve does; dim gives each factor's value and
// cond each Cond parameter's.
func (k *Kernel) SmemBytes(dim func(string) int, cond func(string) bool) int {
	off := 0
	for _, r := range k.Smem {
		b := 0
		if r.Cond == "" || cond(r.Cond) {
			b = elemSize(r.C)
			for _, f := range r.Factors {
				b *= dim(f)
			}
		}
		off = (off + b + 15) &^ 15
	}
	return off
}

func elemSize(c string) int {
	if c == "double" {
		return 8
	}
	return 4
}
