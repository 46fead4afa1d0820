//go:build cgo

package gpu

// The engine's buffers: every device buffer, listed with its size and
// allocated at once, and the host's instance records and their upload.

import (
	"fmt"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// tapeStateBytes mirrors SIMDRL_TAPE_STATE_BYTES (kernels/tape.cuh): one
// episode's tape machine in global memory.
const tapeStateBytes = 2048

// pack writes in as the record the kernels read: its data as the tape's
// machine reads them for the tape's scorer, else as interp.Operands. It
// refuses what the kernels would read other than the CPU reads it (in has
// passed task.Check): a tape cell that no tape holds (tapeCells), a context
// the record cannot show (record.Pack's empty context with operands, whose
// digits the kernels would read). It allocates nothing but its error.
func (e *engine) pack(dst []int32, in *task.Instance) error {
	if e.scoreKind == scoreTape {
		if err := tapeCells(uint32(e.observe), in); err != nil {
			return err
		}
		record.PackData(dst, in)
		return nil
	}
	if e.scoreKind == scoreHost { // the record holds its context; its game, on the host, the instance
		record.PackData(dst, in)
		return nil
	}
	record.Pack(dst, in)
	if n := record.ContextLen(dst); n != int(in.NContext) {
		return fmt.Errorf("instance shows %d context tokens, and a record of its operands would show their %d digits instead", in.NContext, n)
	}
	return nil
}

// buffer is one device buffer of the engine: where its pointer goes, and its
// bytes.
type buffer struct {
	p     *devPtr
	bytes int
}

// buffers lists every device buffer of e, sized by its dimensions, its most
// episodes (maxN) and the slabs of its reductions (slabCaps).
func (e *engine) buffers() []buffer {
	V, H, T, B, RS := e.V, e.H, e.T, e.B, e.R
	V1, G3 := V+1, 3*H
	var plan []buffer
	f32 := func(p *devPtr, n int) { plan = append(plan, buffer{p, 4 * n}) }
	f64 := func(p *devPtr, n int) { f32(p, 2*n) }
	N := e.l.Size
	f32(&e.P, N)
	f32(&e.grad, N)
	f32(&e.m, N)
	f32(&e.v, N)
	f32(&e.table, (e.NV+e.FR)*G3) // a fielded layout's field rows after the tokens
	f32(&e.whhT, H*G3)
	f32(&e.headsT, H*V1)
	f32(&e.headsN, V1*H)
	f32(&e.headsB, V1)
	f32(&e.h, (RS+T+1)*B*H)
	f32(&e.act, (RS+T)*B*G3)
	f32(&e.ghn, (RS+T)*B*H)
	f32(&e.logp, T*B*V)
	for _, p := range []*devPtr{&e.logpa, &e.val, &e.ent, &e.dlogp, &e.dent, &e.dval} {
		f32(p, T*B)
	}
	f32(&e.tokens, (T+1)*e.maxN)
	if e.O > 0 || RS > 0 {
		f32(&e.inputs, (RS+T+1)*e.maxN)
	}
	f32(&e.tasks, record.Words*e.maxN)
	f32(&e.ops, record.OpWords*V)
	f32(&e.notAct, V)
	f32(&e.rewardsIn, B)
	f32(&e.epReturn, B)
	f32(&e.epEnd, B)
	f32(&e.stepsRun, e.maxN) // a rollout's blocks: at most an episode each
	// a block's statistics per rollout block (at most an episode each), then simdrl_estimate's
	f64(&e.stats, statWords*(e.maxN+estimateBlocks(B, 1)))
	f64(&e.outcome, 2*e.maxN)
	if e.scoreKind == scoreTape {
		plan = append(plan, buffer{&e.machines, tapeStateBytes * e.maxN})
	}
	if e.scoreKind == scoreHost {
		f32(&e.hostH, 2*e.maxN*H)
		if e.masks {
			f32(&e.hostLegal, e.maxN*V)
		}
	}
	f32(&e.gradReplay, N)
	f32(&e.dheads, T*B*V1)
	f32(&e.dgh, (RS+T)*B*G3)
	f32(&e.dgin, (RS+T)*B*H)
	f32(&e.dh0g, B*H)
	f32(&e.partWhh, e.sWhh*G3*(H+1))
	f32(&e.partHeads, e.sHeads*V1*(H+1))
	f32(&e.partTok, e.sTok*e.NV*G3)
	f32(&e.partH0, e.sH0*(V+e.S)*H)
	f32(&e.dT, e.NV*G3)
	f32(&e.h0s, (V+e.S)*H)
	f64(&e.sq, 256)
	f64(&e.fin, nFin)
	plan = append(plan, e.ppoBuffers()...)   // -estimator ppo (ppo.go)
	plan = append(plan, e.fieldBuffers()...) // a fielded layout (fields.go)
	return plan
}

// allocate allocates every buffer of e (buffers). They are listed first and
// allocated only when the total fits in the device's memory: a configuration
// too large is refused, not half allocated. What an allocation that fails
// leaves allocated is in bufs, for free.
func (e *engine) allocate() error {
	plan := e.buffers()
	total := 0.0
	for _, b := range plan {
		total += float64(b.bytes)
	}
	if d := e.d; d.TotalMem > 0 && total > float64(d.TotalMem) {
		return &trainer.ResourceError{Need: total, Have: float64(d.TotalMem), Knob: "batch"}
	}
	var err error
	for _, b := range plan {
		if err == nil {
			*b.p, err = e.d.alloc(b.bytes)
			e.bufs = append(e.bufs, *b.p)
		}
	}
	return err
}

// hostRecords is the host's buffer for n instance records (n at most maxN).
func (e *engine) hostRecords(n int) []int32 {
	return e.host.records[:record.Words*n]
}

// longestContext is the longest context among records (record.ContextLen).
func longestContext(records []int32) int {
	n := 0
	for i := 0; i+record.Words <= len(records); i += record.Words {
		n = max(n, record.ContextLen(records[i:]))
	}
	return n
}

// uploadTasks uploads records as the instances of the next rollout with
// given tasks, and remembers their longest context (readSteps).
func (e *engine) uploadTasks(records []int32) error {
	e.givenLongest = longestContext(records)
	return upload(e.tasks, records)
}
