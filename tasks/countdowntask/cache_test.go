package countdowntask

import (
	"os"
	"slices"
	"testing"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// The listing is written to the user's cache directory, read back by the
// next start, and rebuilt (and rewritten) when the file is corrupt or holds
// an instance Draw could not have given.
func TestListingCache(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	path := cachePath(3)
	require.NotEmpty(t, path)
	want := opened(t, "countdown3", "").Instances(0, task.HeldOut, 0)
	data, err := os.ReadFile(path)
	require.NoError(t, err, "the first start writes the cache")
	listed, err := decodeListed(3, data)
	require.NoError(t, err)
	require.Equal(t, drawListing(3), listed)

	// A valid file is what the next start lists: one with each split's
	// instances reversed (still valid) is read, not redrawn.
	rev := drawListing(3)
	slices.Reverse(rev[0])
	slices.Reverse(rev[1])
	require.NoError(t, os.WriteFile(path, encodeListed(3, &rev), 0o644))
	got := opened(t, "countdown3", "").Instances(0, task.HeldOut, 0)
	require.Equal(t, want[0], got[len(got)-1])
	require.NotEqual(t, want, got)

	// Corrupt files are refused and replaced by a fresh draw.
	flip := slices.Clone(data)
	flip[len(flip)/2] ^= 1
	moved := drawListing(3)
	moved[0][0], moved[1][0] = moved[1][0], moved[0][0] // a held-out instance among the training ones
	unsolvable := drawListing(3)
	unsolvable[1][5] = countdown.Instance{N: 3, Numbers: [4]int64{1, 1, 1}, Target: 99}
	for name, bad := range map[string][]byte{
		"flipped byte": flip, "truncated": data[:len(data)-1], "empty": nil,
		"other size":  encodeListed(4, &listed),
		"wrong split": encodeListed(3, &moved),
		"unsolvable":  encodeListed(3, &unsolvable),
	} {
		_, err := decodeListed(3, bad)
		require.Error(t, err, name)
		require.NoError(t, os.WriteFile(path, bad, 0o644))
		require.Equal(t, want, opened(t, "countdown3", "").Instances(0, task.HeldOut, 0), name)
		again, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, data, again, "%s: the cache is rewritten", name)
	}
}

// Without a cache directory the listing is drawn as with one.
func TestListingWithoutCache(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	require.Empty(t, cachePath(3))
	require.Equal(t, drawListing(3)[1][0], func() countdown.Instance {
		in := opened(t, "countdown3", "").Instances(0, task.HeldOut, 1)[0]
		c := countdown.Instance{N: 3, Target: in.Data[dataTarget]}
		copy(c.Numbers[:], in.Data[dataNumbers:dataNumbers+3])
		return c
	}())
}
