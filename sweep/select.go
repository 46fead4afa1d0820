package sweep

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is part i of n of a manifest (0 ≤ i < n): its entries k with
// k mod n = i.
type Shard struct{ I, N int }

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: give i/n with 0 ≤ i < n (e.g. 0/4)", s)
	}
	return Shard{i, n}, nil
}

// Select is the indices into a manifest of count entries that a worker
// runs: index alone when it is ≥ 0, else shard's entries, else (shard.N
// 0) all.
func Select(count, index int, shard Shard) ([]int, error) {
	if index >= 0 {
		if index >= count {
			return nil, fmt.Errorf("index %d: the manifest has %d entries (0 to %d)", index, count, count-1)
		}
		return []int{index}, nil
	}
	var out []int
	for k := 0; k < count; k++ {
		if shard.N == 0 || k%shard.N == shard.I {
			out = append(out, k)
		}
	}
	return out, nil
}
