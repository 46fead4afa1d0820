package kernels

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/arch/arm64/arm64asm"
)

// The Go arm64 assembler lacks many NEON forms (FMLA by element, FADD/FMUL/
// FDIV/FSQRT/FMAX vector, FCVTL, …), so the NEON kernels encode them as
// `WORD $0x…` with the mnemonic in a comment on the same line. This test reads
// kernels/*_arm64.s as text, on any GOARCH, decodes every such word with
// golang.org/x/arch/arm64/arm64asm and requires that the decoded instruction
// is the one the comment names: a wrong bit in a hand-encoded word would
// otherwise compute something else without a trace.

// wordLine matches a WORD directive; the comment, if any, is group 2.
var wordLine = regexp.MustCompile(`^\s*WORD\s+\$(\S+?)\s*(?://\s*(.*?))?\s*$`)

// normAsm canonicalises assembler text: lower case, one space after the
// mnemonic, no spaces around commas and brackets.
func normAsm(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	for _, p := range []string{",", "[", "]", "{", "}"} {
		s = strings.ReplaceAll(s, " "+p, p)
		s = strings.ReplaceAll(s, p+" ", p)
	}
	return s
}

func TestNEONWords(t *testing.T) {
	files, err := filepath.Glob("*_arm64.s")
	require.NoError(t, err)
	words := 0
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(t, err)
		sc := bufio.NewScanner(fh)
		for line := 1; sc.Scan(); line++ {
			text := sc.Text()
			if !strings.HasPrefix(strings.TrimSpace(text), "WORD") {
				continue
			}
			where := fmt.Sprintf("%s:%d", f, line)
			m := wordLine.FindStringSubmatch(text)
			require.NotNilf(t, m, "%s: cannot parse %q", where, text)
			require.NotEmptyf(t, strings.TrimSpace(m[2]), "%s: WORD without a comment naming the instruction", where)
			v, err := strconv.ParseUint(m[1], 0, 32)
			require.NoErrorf(t, err, "%s: bad word %q", where, m[1])
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], uint32(v))
			inst, err := arm64asm.Decode(b[:])
			require.NoErrorf(t, err, "%s: arm64asm cannot decode %#08x (%s)", where, v, m[2])
			got := arm64asm.GNUSyntax(inst)
			require.Equalf(t, normAsm(m[2]), normAsm(got), "%s: word %#08x decodes as %q, comment says %q", where, v, got, m[2])
			words++
		}
		require.NoError(t, sc.Err())
		require.NoError(t, fh.Close())
	}
	t.Logf("%d WORD lines in %d files checked", words, len(files))
	require.NotEmpty(t, files, "no kernels/*_arm64.s files found")
}

func TestNormAsm(t *testing.T) {
	require.Equal(t, "fmla v0.4s,v1.4s,v0.s[0]", normAsm("FMLA  v0.4S , v1.4s,\tv0.s[ 0 ]"))
}
