package policy_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/simdrl/simdrl/policy"
	"github.com/stretchr/testify/require"
)

// TestConcurrentUse: goroutines sharing one Policy, each with pooled
// sessions and Play calls of their own, get what one goroutine alone gets
// (run it under -race: they share the loaded model, nothing else).
func TestConcurrentUse(t *testing.T) {
	path, _, _ := trained(t, kinds[2]) // observing: the Env feeds every step
	p, err := policy.Load(path)
	require.NoError(t, err)
	ins := draw(p.Task(), 6)
	T := p.Steps()
	want := make([]int32, len(ins)*T)
	wantRes := make([]policy.Result, len(ins))
	require.NoError(t, p.Play(ins, want, wantRes))
	s := p.Session()
	wantSampled, _, _ := playSession(t, p, s, &ins[0], policy.Pick{Sample: true, Seed: 4})
	s.Release()

	const goroutines = 6
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*len(ins))
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			progs := make([]int32, len(ins)*T)
			res := make([]policy.Result, len(ins))
			if err := p.Play(ins, progs, res); err != nil {
				errs <- err
				return
			}
			for i := range ins {
				s := p.Session()
				k := (i + g) % len(ins)
				toks, _, _, err := episode(p, s, &ins[k], policy.Pick{})
				s.Release()
				if err != nil || !slices.Equal(toks, want[k*T:k*T+wantRes[k].Steps]) || res[k] != wantRes[k] {
					errs <- fmt.Errorf("goroutine %d, instance %d: %v, %v", g, k, err, toks)
				}
			}
			s := p.Session()
			defer s.Release()
			if toks, _, _, err := episode(p, s, &ins[0], policy.Pick{Sample: true, Seed: 4}); err != nil || !slices.Equal(toks, wantSampled) {
				errs <- fmt.Errorf("goroutine %d, sampled: %v, %v", g, err, toks)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}
