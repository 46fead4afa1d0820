// Package realparts starts the real outside parts that the cluster tests
// need — a one-node Slurm (munged, slurmctld, slurmd) and a PostgreSQL 15
// server for Optuna — each in a private scratch directory, on private ports
// and sockets, and stops each by its process id when the test ends.
//
// A part whose programs are absent (or a test not run as root, which the
// daemons need) skips the test with a message under plain `go test`; with
// SIMDRL_TEST_REQUIRE naming the part ("slurm", "optuna"; a comma-separated
// list, as for cuda and torch) it fails the test instead, as CI asks. Under
// -short the parts are not started (they take seconds, their tests minutes)
// unless required.
//
// The recipes are Debian 12's packages as installed by
//
//	apt-get install -y slurmctld slurmd slurm-client munge python3-optuna python3-psycopg2
//
// (postgresql-15 too, where the image lacks it); slurm.conf.tmpl is the
// configuration, known to work as root in a sandbox.
package realparts
