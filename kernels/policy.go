package kernels

// The policy head: log-softmax over the logits of each row, the seed's
// entropy −Σ p·log(p + 1e-9) with p = exp(log-softmax), their backward, and
// the samplers.

// EntropyEps is the seed's 1e-9 inside the entropy's log.
const EntropyEps = 1e-9

// PolicyForward writes logp (rows×cols, packed) and ent (rows) from logits
// (rows×cols with leading dimension ld ≥ cols).
func PolicyForward(rows, cols int, logits []float32, ld int, logp, ent []float32) {
	checkPolicy("PolicyForward", rows, cols, logits, ld, logp)
	mustLen("PolicyForward", "ent", len(ent), rows)
	if rows == 0 {
		return
	}
	impl.policyFwd(rows, cols, logits, ld, logp, ent)
}

// PolicyBackward writes dL/dlogits (leading dimension ld) given, per row, the
// weight dlogp[r] on log p(actions[r]) and dent[r] on the entropy.
func PolicyBackward(rows, cols int, logp []float32, actions []int32, dlogp, dent, dlogits []float32, ld int) {
	checkPolicy("PolicyBackward", rows, cols, dlogits, ld, logp)
	mustLen("PolicyBackward", "actions", len(actions), rows)
	mustLen("PolicyBackward", "dlogp", len(dlogp), rows)
	mustLen("PolicyBackward", "dent", len(dent), rows)
	for _, a := range actions[:rows] {
		if a < 0 || int(a) >= cols {
			panic("kernels.PolicyBackward: action outside the vocabulary")
		}
	}
	if rows == 0 {
		return
	}
	impl.policyBack(rows, cols, logp, actions, dlogp, dent, dlogits, ld)
}

func checkPolicy(name string, rows, cols int, m []float32, ld int, logp []float32) {
	mustDim(name, "rows", rows, 0)
	mustDim(name, "cols", cols, 1)
	mustDim(name, "ld", ld, cols)
	mustLen(name, "logits", len(m), span(rows, cols, ld))
	mustLen(name, "logp", len(logp), rows*cols)
}

// SampleRows draws one action per row by inverting the CDF of the row's
// probabilities p (rows×cols, e.g. Exp of PolicyForward's logp) at
// u[r] ∈ [0,1): the first column whose running sum exceeds u. Rounding can
// leave the total a hair below u; then the last column with p > 0 is taken.
func SampleRows(rows, cols int, p []float32, u []float32, out []int32) {
	mustLen("SampleRows", "p", len(p), rows*cols)
	mustLen("SampleRows", "u", len(u), rows)
	mustLen("SampleRows", "out", len(out), rows)
	// Every row runs all its columns without a branch on the data (the
	// compiler's CMOVs): a search that stops at the answer mispredicts once a
	// row, at a random column (BenchmarkSampleRows, with fresh u each call;
	// docs/performance.md, "Measurements behind design choices").
	for r := 0; r < rows; r++ {
		row := p[r*cols : r*cols+cols]
		ur := u[r]
		var cum float32
		pick, lastPositive := cols, 0
		for j, pj := range row {
			if pj > 0 {
				lastPositive = j
			}
			cum += pj
			past := cols
			if ur < cum {
				past = j
			}
			pick = min(pick, past)
		}
		if pick == cols {
			pick = lastPositive
		}
		out[r] = int32(pick)
	}
}

// ArgmaxRows writes the index of each row's largest value (the first on ties,
// as torch.argmax on CPU) of a rows×cols matrix with leading dimension ld.
func ArgmaxRows(rows, cols int, x []float32, ld int, out []int32) {
	mustLen("ArgmaxRows", "x", len(x), span(rows, cols, ld))
	mustLen("ArgmaxRows", "out", len(out), rows)
	for r := 0; r < rows; r++ {
		row := x[r*ld : r*ld+cols]
		best := 0
		for j, v := range row {
			if v > row[best] {
				best = j
			}
		}
		out[r] = int32(best)
	}
}
