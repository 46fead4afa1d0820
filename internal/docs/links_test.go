package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// pages are the Markdown pages a reader moves between: README.md,
// BENCHMARKS.md and docs/*.md, as paths from the repository root.
func pages(t *testing.T) []string {
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, docs, "no docs/*.md")
	out := []string{"README.md", "BENCHMARKS.md"}
	for _, d := range docs {
		out = append(out, strings.TrimPrefix(d, "../../"))
	}
	return out
}

var (
	codeSpan = regexp.MustCompile("`[^`]*`")
	link     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// links are the targets of a page's Markdown links and images, outside code
// blocks and code spans.
func links(page string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue
		}
		for _, m := range link.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// anchors are the fragment names GitHub gives a page's headings: lower case,
// letters, digits, '-' and '_' kept, spaces made '-', the rest dropped, and
// a repeated name suffixed -1, -2, ….
func anchors(page string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#"))) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		name := b.String()
		for i, n := 1, name; ; i++ {
			if !out[n] {
				out[n] = true
				break
			}
			n = name + "-" + strconv.Itoa(i)
		}
	}
	return out
}

// TestDocLinks: every relative link of README.md, BENCHMARKS.md and
// docs/*.md names a file of the repository, and every #fragment a heading
// of the page it points to.
func TestDocLinks(t *testing.T) {
	n := 0
	for _, p := range pages(t) {
		raw, err := os.ReadFile(filepath.Join("../..", p))
		require.NoError(t, err)
		for _, target := range links(string(raw)) {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			n++
			file, frag, _ := strings.Cut(target, "#")
			dest := p
			if file != "" {
				dest = filepath.Join(filepath.Dir(p), file)
			}
			body, err := os.ReadFile(filepath.Join("../..", dest))
			require.NoErrorf(t, err, "%s links to %s, which is not a file", p, target)
			if frag != "" {
				require.Truef(t, strings.HasSuffix(dest, ".md"), "%s links to a fragment of %s, which is not a Markdown page", p, target)
				require.Truef(t, anchors(string(body))[frag], "%s links to %s: %s has no heading #%s", p, target, dest, frag)
			}
		}
	}
	require.Greater(t, n, 10, "the pages link to each other")
}

// TestDocAnchors: the fragment names follow GitHub's rule, so that a link
// the test accepts is one a reader can follow.
func TestDocAnchors(t *testing.T) {
	a := anchors("# Bad input, outputs and interruptions\n## The `-plot` flag\n```\n# not a heading\n```\n## Twice\n## Twice\n")
	require.Equal(t, map[string]bool{"bad-input-outputs-and-interruptions": true, "the--plot-flag": true, "twice": true, "twice-1": true}, a)
}
