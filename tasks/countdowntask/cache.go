package countdowntask

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/internal/atomicfile"
)

// Countdown's listed instances take about a second to draw on a loaded
// machine (BenchmarkBuild: some twenty rejected draws each for the
// held-out split) and a fraction of that to verify, so a start keeps them
// in the user's cache directory (issue 53, item 4): one file per pool size
// and cacheVersion, checked on load (its checksum, its counts, every
// instance in range, solvable and in its split) and rebuilt when any check
// fails. The cache is an optimisation: when it cannot be read or written
// the instances are drawn as without it.

// cacheVersion names what a listing holds: bump it when the draw, the
// split's rule, ListedCountdown or listKey changes.
const cacheVersion = 1

// cachePath is the cache file of pools of n numbers; "" when the user has
// no cache directory.
func cachePath(n int) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "simdrl", "countdowntask", fmt.Sprintf("countdown%d-listed-v%d", n, cacheVersion))
}

// cacheHeader is the file's first line: what it holds.
func cacheHeader(n int) []byte {
	return fmt.Appendf(nil, "simdrl countdowntask listed v%d: %d numbers, %d instances per split\n", cacheVersion, n, ListedCountdown)
}

// encodeListed is a listing as bytes: the header, then per split (Training,
// HeldOut) each instance's numbers (padded to MaxNumbers) and target, a
// byte each (all are at most 100), then the SHA-256 of all before it.
func encodeListed(n int, listed *[2][]countdown.Instance) []byte {
	b := cacheHeader(n)
	for _, split := range listed {
		for _, in := range split {
			for _, v := range in.Numbers {
				b = append(b, byte(v))
			}
			b = append(b, byte(in.Target))
		}
	}
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// decodeListed reads and verifies a listing (encodeListed).
func decodeListed(n int, data []byte) ([2][]countdown.Instance, error) {
	var listed [2][]countdown.Instance
	head := cacheHeader(n)
	const record = countdown.MaxNumbers + 1
	if len(data) != len(head)+2*ListedCountdown*record+sha256.Size || !bytes.HasPrefix(data, head) {
		return listed, errors.New("not a listing of this version, size and count")
	}
	body := data[:len(data)-sha256.Size]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[len(body):]) {
		return listed, errors.New("checksum mismatch")
	}
	body = body[len(head):]
	for sp := range listed {
		for range ListedCountdown {
			in := countdown.Instance{N: n, Target: int64(body[countdown.MaxNumbers])}
			for k := range countdown.MaxNumbers {
				in.Numbers[k] = int64(body[k])
			}
			body = body[record:]
			if err := checkListed(&in, sp == 1); err != nil {
				return listed, err
			}
			listed[sp] = append(listed[sp], in)
		}
	}
	return listed, nil
}

// checkListed refuses an instance Draw could not have given for the split.
func checkListed(in *countdown.Instance, heldOut bool) error {
	for k, v := range in.Numbers {
		if k < in.N && (v < countdown.MinNumber || v > countdown.MaxNumber) || k >= in.N && v != 0 {
			return fmt.Errorf("instance %v: numbers out of range", in.Numbers)
		}
	}
	switch {
	case in.Target < countdown.MinTarget || in.Target > countdown.MaxTarget:
		return fmt.Errorf("instance %v → %d: target out of range", in.Numbers, in.Target)
	case in.HeldOut() != heldOut:
		return fmt.Errorf("instance %v → %d: in the other split", in.Numbers, in.Target)
	case !in.Solvable():
		return fmt.Errorf("instance %v → %d: not solvable", in.Numbers, in.Target)
	}
	return nil
}

// cachedListing is the verified listing of pools of n numbers in the cache,
// or build's (then written to the cache for the next start).
func cachedListing(n int, build func(n int) [2][]countdown.Instance) [2][]countdown.Instance {
	path := cachePath(n)
	if path != "" {
		if data, err := os.ReadFile(path); err == nil {
			if listed, err := decodeListed(n, data); err == nil {
				return listed
			}
		}
	}
	listed := build(n)
	if path != "" && os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		_ = atomicfile.Write(path, encodeListed(n, &listed)) // best effort: the next start draws again
	}
	return listed
}
