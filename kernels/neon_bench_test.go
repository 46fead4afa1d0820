//go:build arm64 && !purego

package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// NEON against generic on the model's hot shapes. Meaningful on arm64
// hardware only: timings under an emulator (qemu) say nothing about speed.
//
//	go test ./kernels -run '^$' -bench NEON

func BenchmarkNEONSgemm(b *testing.B) {
	s := neonSet(b)
	r := rand.New(rand.NewPCG(61, 62))
	x := randSlice(r, 4096*288, 0, 1)
	y := randSlice(r, 4096*288, 0, 1)
	c := make([]float32, 4096*288)
	type shape struct {
		form    string
		m, n, k int
	}
	var shapes []shape
	for _, rows := range []int{64, 192, 4096} {
		shapes = append(shapes, shape{"NT", rows, 288, 96}, shape{"NN", rows, 96, 288}, shape{"NT", rows, 19, 96})
	}
	shapes = append(shapes, shape{"TN", 288, 96, 6 * 64}, shape{"TN", 288, 96, 6 * 192})
	for _, sh := range shapes {
		for _, set := range []*implementation{&generic, s} {
			var f neonGemmSig
			lda, ldb := sh.k, sh.n
			switch sh.form {
			case "NN":
				f = set.sgemmNN
			case "NT":
				f, ldb = set.sgemmNT, sh.k
			case "TN":
				f, lda = set.sgemmTN, sh.m
			}
			b.Run(fmt.Sprintf("%s_%dx%dx%d/%s", sh.form, sh.m, sh.n, sh.k, set.name), func(b *testing.B) {
				b.SetBytes(int64(4 * sh.m * sh.n * sh.k)) // "bytes" = 2 flops: MB/s ≈ MFLOP/s / 2
				for b.Loop() {
					f(sh.m, sh.n, sh.k, 1, x, lda, y, ldb, 0, c, sh.n)
				}
			})
		}
	}
}

func BenchmarkNEONElementwise(b *testing.B) {
	s := neonSet(b)
	r := rand.New(rand.NewPCG(63, 64))
	const rows, d = 64, 96
	g := neonNewGRU(r, rows, d, 4)
	act, hn := make([]float32, rows*3*d), make([]float32, rows*d)
	dgh, dhp, dt := make([]float32, rows*3*d), make([]float32, rows*d), make([]float32, 5*3*d)
	logits := randSlice(r, rows*19, 0, 3)
	lp, ent, dx := make([]float32, rows*18), make([]float32, rows), make([]float32, rows*19)
	acts := make([]int32, rows)
	p, m, v := make([]float32, 100000), make([]float32, 100000), make([]float32, 100000)
	grad := randSlice(r, 100000, 0, 1)
	for _, set := range []*implementation{&generic, s} {
		b.Run("gruForward/"+set.name, func(b *testing.B) {
			for b.Loop() {
				set.gruForward(rows, d, g.table, g.tokens, g.gh, g.hPrev, hn, act)
			}
		})
		b.Run("gruBack/"+set.name, func(b *testing.B) {
			for b.Loop() {
				set.gruBack(rows, d, g.tokens, act, g.gh, g.hPrev, g.dh, dgh, dhp, dt)
			}
		})
		b.Run("policyFwd/"+set.name, func(b *testing.B) {
			for b.Loop() {
				set.policyFwd(rows, 18, logits, 19, lp, ent)
			}
		})
		b.Run("policyBack/"+set.name, func(b *testing.B) {
			for b.Loop() {
				set.policyBack(rows, 18, lp, acts, logits[:rows], logits[rows:2*rows], dx, 19)
			}
		})
		b.Run("adam/"+set.name, func(b *testing.B) {
			for b.Loop() {
				set.adam(p, grad, m, v, 1, 0.9, 0.999, 1e-8, 1e-3, 0.03)
			}
		})
		b.Run("sumSquares/"+set.name, func(b *testing.B) {
			for b.Loop() {
				_ = set.sumSquares(grad)
			}
		})
		b.Run("tanh/"+set.name, func(b *testing.B) { // the initial state
			h := make([]float32, rows*d)
			for b.Loop() {
				set.tanh(h, grad[:rows*d])
			}
		})
		b.Run("exp/"+set.name, func(b *testing.B) { // the sampler's probabilities
			for b.Loop() {
				set.exp(dx[:rows*18], lp)
			}
		})
		b.Run("add/"+set.name, func(b *testing.B) { // the gradient merge
			for b.Loop() {
				set.add(m, grad)
			}
		})
	}
}
