package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSignalWhileTheReportIsWritten: a SIGINT or SIGTERM that comes after
// the run ended, while its report and plot are written (delivered by the
// test hook at that point, not raced against the run), lets them finish and
// exits 128+signal, as one during training does; so does one during an
// -eval-only run's report.
func TestSignalWhileTheReportIsWritten(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "c.st")
	code, _, stderr := runCLI(append(small, "-updates", "2", "-save", ck)...)
	require.Equal(t, 0, code, stderr)
	defer func() { testHookFinishing = nil }()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, args := range [][]string{
			{"-updates", "2", "-plot", filepath.Join(dir, "p.png")},
			{"-load", ck, "-eval-only"},
		} {
			sigs := make(chan os.Signal, 1)
			testHookFinishing = func(in *interrupts) {
				sigs <- sig
				<-in.stop // the watcher has taken it
			}
			rep := filepath.Join(dir, "r.json")
			os.Remove(rep)
			var o, e bytes.Buffer
			code := run(append(append(small, args...), "-report", rep), &o, &e, sigs)
			require.Equalf(t, 128+int(sig), code, "%v %v: %s", sig, args, e.String())
			r := readReport(t, rep)
			require.NotContains(t, r, "interrupted", "the run itself was complete")
			require.NotEmpty(t, r["final"].(map[string]any)["solve_rate"], "the report is whole")
		}
	}
}
