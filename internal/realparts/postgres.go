package realparts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pgBin is where Debian's postgresql-15 keeps its server programs.
const pgBin = "/usr/lib/postgresql/15/bin"

// Postgres is a PostgreSQL server started for one test, on a Unix socket in
// a private directory (no TCP), with a database for Optuna.
type Postgres struct {
	Dir string // owned by the postgres user: data/, the socket, log
	// URL is the database as an SQLAlchemy URL, for Optuna's --storage.
	URL string
}

// StartOptunaPostgres starts a PostgreSQL 15 server as the postgres user
// (it refuses root), creates a database, and checks that the optuna command
// can use it (python3-optuna and python3-psycopg2); at the test's end it
// stops the server with pg_ctl stop, which signals the server's process id
// from its pid file. It skips (or fails, SIMDRL_TEST_REQUIRE=optuna) when a
// part is absent or the test is not root.
func StartOptunaPostgres(t testing.TB) *Postgres {
	t.Helper()
	long(t, "optuna")
	const install = "apt-get install -y postgresql-15 python3-optuna python3-psycopg2"
	if _, err := exec.LookPath("optuna"); err != nil {
		missing(t, "optuna", "no optuna command on PATH", install)
	}
	for _, p := range []string{"initdb", "pg_ctl", "createdb"} {
		if _, err := os.Stat(filepath.Join(pgBin, p)); err != nil {
			missing(t, "optuna", "no PostgreSQL 15 server: "+err.Error(), install)
		}
	}
	if _, err := exec.LookPath("runuser"); err != nil {
		missing(t, "optuna", "no runuser to start the server as the postgres user", install)
	}
	uid, err := postgresUID()
	if err != nil {
		missing(t, "optuna", "no postgres user: "+err.Error(), install)
	}
	if os.Geteuid() != 0 {
		missing(t, "optuna", "the test starts PostgreSQL as the postgres user, which needs root", install)
	}
	dir, err := os.MkdirTemp("", "pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chown(dir, uid, -1); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := &Postgres{Dir: dir}
	port := strconv.Itoa(freePorts(t, 1)[0]) // only names the socket: the server listens on no TCP port
	data := filepath.Join(dir, "data")
	asPostgres(t, "initdb", "-D", data, "-A", "trust", "-U", "optuna")
	asPostgres(t, "pg_ctl", "-D", data, "-o", fmt.Sprintf("-k %s -c listen_addresses='' -p %s", dir, port),
		"-l", filepath.Join(dir, "log"), "-w", "start")
	t.Cleanup(func() {
		out, err := postgresCommand("pg_ctl", "-D", data, "-m", "fast", "-w", "stop").CombinedOutput()
		if err != nil {
			t.Errorf("pg_ctl stop: %v: %s", err, out)
		}
	})
	asPostgres(t, "createdb", "-h", dir, "-p", port, "-U", "optuna", "study")
	p.URL = fmt.Sprintf("postgresql+psycopg2://optuna@/study?host=%s&port=%s", dir, port)
	if out, err := exec.Command("optuna", "studies", "-f", "json", "--storage", p.URL).CombinedOutput(); err != nil {
		missing(t, "optuna", fmt.Sprintf("optuna cannot use PostgreSQL (%v): %s", err, lastLine(out)), install)
	}
	return p
}

// Log is the server's log, for a failing test's message.
func (p *Postgres) Log() string {
	data, _ := os.ReadFile(filepath.Join(p.Dir, "log"))
	return string(data)
}

func postgresCommand(name string, args ...string) *exec.Cmd {
	return exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(pgBin, name)}, args...)...)
}

// asPostgres runs a server program as the postgres user, failing t when it
// fails.
func asPostgres(t testing.TB, name string, args ...string) {
	t.Helper()
	if out, err := postgresCommand(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", name, err, out)
	}
}

// postgresUID is the postgres user's id, from id(1): os/user would bring
// cgo into every test build for this one look-up.
func postgresUID() (int, error) {
	out, err := exec.Command("id", "-u", "postgres").Output()
	if err != nil {
		return 0, fmt.Errorf("id -u postgres: %v", err)
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}
