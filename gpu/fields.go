//go:build cgo

package gpu

// Observation fields and the float vector (task.Fielded, gru/fields.go) on
// the GPU. A fielded task is a Go task, stepped on the host (hoststep.go):
// after Reset and every Step the host writes each episode's fields and
// vector (hostGames.writeFields, checked as the CPU checks them) and
// uploads them with the step's other host data. The device keeps the input
// table of V token rows then Σ O_f field rows, and vecM = W_ih·vec.weight
// (simdrl_derive_fields, gru.Derived.computeFields); before each policy step
// simdrl_field_gates sums each episode's token row, field rows and vecM·v
// into its input gates, which simdrl_host_step reads as a table of one row
// an episode; the backward spreads the gates' gradient over the same rows
// and carries it to field_emb, vec.* and W_ih (fieldGradients, as
// gru.TableGradient.applyFields). One field and no vector is an observation
// model (gru.Config.Observations): its field is the observation of the
// token-table row a·O + o, as on the CPU (hostGames.writeFields).

import (
	"fmt"

	"github.com/simdrl/simdrl/task"
)

// fieldBlock is simdrl_field_partial's block: a thread a column of 3d.
const fieldBlock = 128

// fieldRows is the training rollout's and any evaluation's rows of fields
// and vectors on the device: a training rollout keeps every step's (T×B,
// step-major, for the backward), an evaluation only the step it plays.
func (e *engine) fieldRows() int { return max(e.T*e.B, e.maxN) }

func (e *engine) fieldTiles() int { return ceilDiv(3*e.H, fieldBlock) }

// fieldBuffers lists the device buffers of a fielded layout (none
// otherwise): each only when the layout has what it holds (fields, a
// vector).
func (e *engine) fieldBuffers() []buffer {
	if !e.fielded {
		return nil
	}
	G3, rows := 3*e.H, e.fieldRows()
	var plan []buffer
	f32 := func(p *devPtr, n int) { plan = append(plan, buffer{p, 4 * n}) }
	f32(&e.gates, e.maxN*G3)
	f32(&e.iota, e.maxN)
	if e.FR > 0 {
		f32(&e.fieldIn, rows*e.nf)
		f32(&e.fieldOffs, e.nf+1)
		f32(&e.partField, e.sField*e.FR*G3)
		f32(&e.dF, e.FR*G3)
	}
	if e.F > 0 {
		f32(&e.vecM, G3*e.F)
		f32(&e.fieldVec, rows*e.F)
		f32(&e.dM, G3*e.F)
	}
	return plan
}

// uploadFieldTables uploads what a fielded engine reads and never changes:
// each field's first field row (offs, gru.Layout.fieldOffsets less V) and
// the identity rows 0..maxN−1 through which simdrl_host_step reads the
// gates.
func (e *engine) uploadFieldTables() error {
	if !e.fielded {
		return nil
	}
	iota := make([]int32, e.maxN)
	for i := range iota {
		iota[i] = int32(i)
	}
	if err := upload(e.iota, iota); err != nil {
		return err
	}
	if e.FR == 0 {
		return nil
	}
	offs := make([]int32, e.nf+1)
	for f, o := range e.l.Fields {
		offs[f+1] = offs[f] + int32(o)
	}
	return upload(e.fieldOffs, offs)
}

// deriveFields writes the field rows, and with a vector the token rows with
// W_ih·vec.bias and vecM, after simdrl_derive (engine.derive).
func (e *engine) deriveFields() error {
	l, G3 := e.l, 3*e.H
	total := G3 * (e.FR + e.F)
	if e.F > 0 {
		total += e.V * G3
	}
	e.a.reset().ptr("P", e.P).i32("d", e.H).i32("V", e.V).i32("S", e.S).i32("FR", e.FR).i32("F", e.F).
		i32("fe", l.FieldEmb.Offset).i32("vw", l.VecW.Offset).i32("vb", l.VecB.Offset).ptr("table", e.table).ptr("vecM", e.vecM)
	return e.launch("simdrl_derive_fields", gridFor(total), block256, 0, &e.a)
}

// uploadFields uploads the n episodes' fields and vectors that the host
// wrote for step t: at step t's rows in training (the backward reads
// them), else at the first rows.
func (e *engine) uploadFields(t, n int, train bool) error {
	if !e.fielded {
		return nil
	}
	g, row := e.games, 0
	if train {
		row = t * n
	}
	if err := upload(e.fieldIn.at(row*e.nf), g.fieldVals[:n*e.nf]); err != nil {
		return err
	}
	return upload(e.fieldVec.at(row*e.F), g.fieldVec[:n*e.F])
}

// fieldGates writes the n episodes' input gates at step t (their tokens in
// inRows) into e.gates, and returns the table and rows simdrl_host_step
// reads them through: the gates, row b for episode b.
func (e *engine) fieldGates(t, n int, train bool, inRows devPtr) (table, rows devPtr, NV int, err error) {
	row := 0
	if train {
		row = t * n
	}
	e.a.reset().ptr("table", e.table).ptr("vecM", e.vecM).i32("B", n).i32("d", e.H).i32("V", e.V).i32("nf", e.nf).i32("F", e.F).
		ptr("offs", e.fieldOffs).ptr("in_rows", inRows).ptr("fields", e.fieldIn.at(row*e.nf)).ptr("vec", e.fieldVec.at(row*e.F)).ptr("gates", e.gates)
	return e.gates, e.iota, n, e.launch("simdrl_field_gates", gridFor(n*3*e.H), block256, 0, &e.a)
}

// fieldGradients adds the fields' and the vector's share to the gradient
// after simdrl_input_grads (gradients): the field rows' gradient over the
// R = steps·B rows (per slab, summed in slab order), dM, then
// simdrl_field_grads.
func (e *engine) fieldGradients(R int) error {
	l, G3, a := e.l, 3*e.H, e.a.reset()
	if e.FR > 0 {
		S, slab := slabPlan(R, e.fieldTiles(), e.d.SMs)
		if S > e.sField {
			return fmt.Errorf("gpu: %d field reduction slabs in buffers for %d", S, e.sField) // slabCap's bound broken
		}
		a.ptr("dgh", e.dgh).ptr("dgin", e.dgin).ptr("fields", e.fieldIn).ptr("offs", e.fieldOffs).i32("R", R).i32("G3", G3).
			i32("nf", e.nf).i32("FR", e.FR).i32("slab", slab).ptr("part", e.partField)
		if err := e.launch("simdrl_field_partial", [3]int{e.fieldTiles(), S, 1}, [3]int{fieldBlock, 1, 1}, 0, a); err != nil {
			return err
		}
		a.reset().ptr("part", e.partField).i32("S", S).i32("M", e.FR).i32("N", G3).i32("ones", 0).i32("split", e.FR).
			ptr("out", e.dF).i32("ldo", G3).ptr("bias", 0).ptr("out2", 0).ptr("bias2", 0)
		if err := e.launch("simdrl_sum_slabs", gridFor(e.FR*G3), block256, 0, a); err != nil {
			return err
		}
	}
	if e.F > 0 {
		a.reset().ptr("dgh", e.dgh).ptr("dgin", e.dgin).ptr("vec", e.fieldVec).i32("R", R).i32("G3", G3).i32("F", e.F).ptr("dM", e.dM)
		if err := e.launch("simdrl_vec_grad", gridFor(G3*e.F), block256, 0, a); err != nil {
			return err
		}
	}
	H := e.H
	total := G3*H + e.FR*H + H*e.F
	if e.F > 0 {
		total += H
	}
	a.reset().ptr("P", e.P).ptr("dT", e.dT).ptr("dF", e.dF).ptr("dM", e.dM).i32("d", H).i32("V", e.V).i32("S", e.S).i32("FR", e.FR).
		i32("F", e.F).i32("fe", l.FieldEmb.Offset).i32("vw", l.VecW.Offset).i32("vb", l.VecB.Offset).ptr("grad", e.grad)
	return e.launch("simdrl_field_grads", gridFor(total), block256, 0, a)
}

// fieldsNotHosted refuses a fielded task that the kernels would play
// natively (the calculator's op table, the tape's machine): their rollouts
// compute their own observations and feed no fields.
func fieldsNotHosted(t task.Task) error {
	return fmt.Errorf("gpu: task %s declares observation fields (task.Fielded), which the CUDA kernels feed only to a task whose game the host steps, not to one they play natively; train it on the CPU", t.Name())
}

// modelObservations is the observations of t's model (gru.Config.Observations):
// a Fielded task's one field without a vector is its observation, as
// gru.NewLayout makes it; any other task's are task.Observations.
func modelObservations(t task.Task) int {
	if s := task.Fields(t); len(s.Sizes) == 1 && s.Vector == 0 {
		return s.Sizes[0]
	}
	return task.Observations(t)
}

// writeFields writes the fields and vector of part's episode b (the row
// b − lo of its Env) into the host's buffers, checked as the CPU checks
// them (task.CheckFields: a bad one panics with the task's
// ViolationError, the part's error), and returns the observation of the
// episode's next input: its one field, for an observation model (O > 0).
func (g *hostGames) writeFields(part *gamePart, b int) int32 {
	nf, F := len(g.spec.Sizes), g.spec.Vector
	fs, vs := g.fieldVals[b*nf:(b+1)*nf], g.fieldVec[b*F:(b+1)*F]
	part.fields.WriteFields(b-part.lo, fs, vs)
	if err := task.CheckFields(g.spec.Sizes, fs, vs); err != nil {
		panic(err)
	}
	if g.O > 0 {
		return fs[0]
	}
	return task.NoObservation
}
