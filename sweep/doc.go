// Package sweep is simdrl's experiments without the command line: a spec
// (base flags, axes, seeds) expands into runs (Spec.Runs), each run gets an
// id from its resolved configuration (ID), the runs are written as a
// manifest of JSON lines (Entry), and a worker finds each run's directory
// (Dir), locks it (Lock) and picks its entries (Select). The command
// (cli's `simdrl sweep plan` and `sweep run`) resolves flags and trains;
// docs/experiments.md describes the whole.
package sweep
