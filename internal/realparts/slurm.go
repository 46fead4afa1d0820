package realparts

import (
	"bytes"
	"crypto/rand"
	_ "embed"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"text/template"
	"time"
)

//go:embed slurm.conf.tmpl
var slurmConf string

// Slurm is a one-node Slurm cluster started for one test.
type Slurm struct {
	Dir  string // the scratch directory: slurm.conf, munge/, spool/, log/
	Conf string // slurm.conf: SLURM_CONF for the client commands
}

// slurmPrograms are the programs a test's Slurm needs (Debian's packages).
var slurmPrograms = []string{"munged", "slurmctld", "slurmd", "sinfo", "sbatch", "scontrol", "squeue", "scancel"}

// partUp bounds every wait (Await): a daemon coming up or down, and a
// test's array of runs finishing. It guards against a hang, so it is far
// above the length of any of them on a loaded two-core machine (the array
// takes about 30 s alone; two minutes was within reach of CI under load).
const partUp = 10 * time.Minute

// StartSlurm starts munged, slurmctld and slurmd in the foreground (so that
// their process ids are the test's children's) with a private
// configuration, and waits until sinfo shows the node idle. At the test's
// end it cancels any job left, waits for the queue to empty, and stops each
// daemon by its process id. It skips (or fails, SIMDRL_TEST_REQUIRE=slurm)
// when a program is absent or the test is not root.
func StartSlurm(t testing.TB) *Slurm {
	t.Helper()
	long(t, "slurm")
	const install = "apt-get install -y slurmctld slurmd slurm-client munge"
	for _, p := range slurmPrograms {
		if _, err := exec.LookPath(p); err != nil {
			missing(t, "slurm", "no "+p+" on PATH", install)
		}
	}
	if os.Geteuid() != 0 {
		missing(t, "slurm", "the test Slurm runs its daemons as root, and this test is not root", install)
	}
	// A short path: munge's socket must fit a Unix socket's 108 bytes.
	w, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(w) })
	for _, d := range []string{"munge", "run", "log", "spool/ctld", "spool/d"} {
		if err := os.MkdirAll(filepath.Join(w, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	s := &Slurm{Dir: w, Conf: filepath.Join(w, "slurm.conf")}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".") // `hostname -s`: what slurmd takes itself for
	ports := freePorts(t, 2)
	var conf bytes.Buffer
	err = template.Must(template.New("slurm.conf").Parse(slurmConf)).Execute(&conf, map[string]any{
		"W": w, "Host": host, "CtldPort": ports[0], "DPort": ports[1], "CPUs": runtime.NumCPU(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Conf, conf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 128)
	_, _ = rand.Read(key)
	if err := os.WriteFile(filepath.Join(w, "munge.key"), key, 0o400); err != nil {
		t.Fatal(err)
	}

	s.daemon(t, "munged", "--foreground", "--force", "--key-file="+filepath.Join(w, "munge.key"),
		"--socket="+filepath.Join(w, "munge", "munge.socket"), "--pid-file="+filepath.Join(w, "run", "munged.pid"),
		"--log-file="+filepath.Join(w, "log", "munged.log"), "--seed-file="+filepath.Join(w, "munge.seed"))
	s.await(t, "munged's socket", func() (bool, string) {
		_, err := os.Stat(filepath.Join(w, "munge", "munge.socket"))
		return err == nil, fmt.Sprint(err)
	})
	s.daemon(t, "slurmctld", "-D", "-i", "-f", s.Conf)
	s.daemon(t, "slurmd", "-D", "-f", s.Conf)
	s.await(t, "the node idle in sinfo", func() (bool, string) {
		out, err := s.Command("sinfo", "-h", "-N", "-o", "%T").CombinedOutput()
		return err == nil && strings.TrimSpace(string(out)) == "idle", string(out)
	})
	// Registered last, so run first: no job outlives the daemons that track it.
	t.Cleanup(func() { s.drain(t) })
	return s
}

// Env is the environment for Slurm's client commands: this cluster's
// SLURM_CONF.
func (s *Slurm) Env() []string {
	return append(os.Environ(), "SLURM_CONF="+s.Conf)
}

// Command is a Slurm client command (sbatch, scontrol, …) for this cluster.
func (s *Slurm) Command(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Env = s.Env()
	return c
}

// Logs is the daemons' logs, for a failing test's message.
func (s *Slurm) Logs() string {
	var b strings.Builder
	for _, f := range []string{"slurmctld.log", "slurmd.log", "jobcomp.txt"} {
		data, _ := os.ReadFile(filepath.Join(s.Dir, "log", f))
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		lines = lines[max(0, len(lines)-30):]
		fmt.Fprintf(&b, "--- %s (last lines)\n%s\n", f, strings.Join(lines, "\n"))
	}
	return b.String()
}

// daemon starts name in the foreground and stops it by its process id
// (SIGTERM, then waiting for it) at the test's end.
func (s *Slurm) daemon(t testing.TB, name string, args ...string) {
	t.Helper()
	c := exec.Command(name, args...)
	c.Env = s.Env()
	log, err := os.Create(filepath.Join(s.Dir, "log", name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	c.Stdout, c.Stderr = log, log
	if err := c.Start(); err != nil {
		log.Close()
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait(); log.Close() }()
	t.Cleanup(func() { stop(t, name, c.Process, exited) })
}

// drain cancels the jobs left (a failed test's) and waits until the queue
// is empty, so that no job step outlives slurmd.
func (s *Slurm) drain(t testing.TB) {
	_ = s.Command("scancel", "--full", "--quiet", "--user=root").Run()
	s.await(t, "the queue empty", func() (bool, string) {
		out, err := s.Command("squeue", "-h", "-o", "%i %T").CombinedOutput()
		return err == nil && strings.TrimSpace(string(out)) == "", string(out)
	})
}

// await polls cond (a command's state: an event, with a pause between
// looks so as not to spin) until it holds; partUp without fails the test.
func (s *Slurm) await(t testing.TB, what string, cond func() (bool, string)) {
	t.Helper()
	Await(t, what, cond, s.Logs)
}

// Await polls cond until it holds, failing t with cond's last word and
// logs() after partUp: a state that never comes is a broken part.
func Await(t testing.TB, what string, cond func() (bool, string), logs func() string) {
	t.Helper()
	deadline := time.Now().Add(partUp)
	for {
		ok, last := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			extra := ""
			if logs != nil {
				extra = logs()
			}
			t.Fatalf("waited %v for %s; last: %s\n%s", partUp, what, strings.TrimSpace(last), extra)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop sends SIGTERM to p and waits for it to exit; one that outlives
// partUp is killed.
func stop(t testing.TB, name string, p *os.Process, exited <-chan error) {
	_ = p.Signal(os.Signal(termSignal))
	select {
	case <-exited:
	case <-time.After(partUp):
		t.Errorf("%s (pid %d) did not stop on SIGTERM within %v: killed", name, p.Pid, partUp)
		_ = p.Kill()
		<-exited
	}
}

// freePorts returns n TCP ports that were free on 127.0.0.1 just now.
func freePorts(t testing.TB, n int) []int {
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}
