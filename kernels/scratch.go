package kernels

import "sync"

// scratch hands out fixed-size packing buffers to the assembly GEMM drivers.
// A call takes one and gives it back, so the steady state allocates nothing
// and there are never more buffers than calls ever running at once. Not
// stack arrays, because Go zeroes those on every call, a large share of a
// small GEMM (docs/performance.md, "Measurements behind design choices"),
// and not a sync.Pool, which empties at every GC and would allocate again
// afterwards.
type scratch[T any] struct {
	mu   sync.Mutex
	free []*T
}

func (s *scratch[T]) get() *T {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.free); n > 0 {
		b := s.free[n-1]
		s.free = s.free[:n-1]
		return b
	}
	return new(T)
}

func (s *scratch[T]) put(b *T) {
	s.mu.Lock()
	s.free = append(s.free, b)
	s.mu.Unlock()
}
