// Package cluster writes what runs a sweep's manifest on a cluster — Slurm
// array scripts, a Kubernetes Indexed Job — and drives an Optuna study's
// trials through the optuna command's ask and tell. The cli package's
// `simdrl sweep slurm|k8s|optuna` verbs are its flags; this package has none.
//
// Every worker it sets up is `simdrl sweep run MANIFEST --dir DIR` with an
// index, which runs one entry in DIR/<id>/, skips a finished one and
// resumes an interrupted one from its checkpoint: a requeued or restarted
// task picks up where its last attempt saved.
package cluster
