package cluster

import (
	"errors"
	"fmt"
	"path"
	"regexp"

	"go.yaml.in/yaml/v3"
)

// Kubernetes is a sweep to run as a Kubernetes Indexed Job: one completion
// an entry, the pod's JOB_COMPLETION_INDEX (which Kubernetes sets in an
// Indexed Job's pods) naming the entry that `simdrl sweep run` runs.
type Kubernetes struct {
	Name  string // the Job's name
	Image string // an image with simdrl in it, on PATH as Command[0]
	// Command is the worker's command before "sweep run" (["simdrl"]).
	Command []string
	// Manifest and Dir are paths inside the pod: Dir is the volume's mount
	// (each run in Dir/<id>/), Manifest is read there (put it in the volume,
	// or in the image).
	Manifest, Dir string
	Claim         string // the PersistentVolumeClaim mounted at Dir: every pod sees every run's directory
	Entries       int
	Parallelism   int
	// BackoffLimitPerIndex is how many times one entry's pod may fail (not
	// counting preemptions, which the pod failure policy ignores) before
	// that index is marked failed; the other indexes go on.
	BackoffLimitPerIndex int
	// GraceSeconds is how long a pod has to save after SIGTERM before it is
	// killed (terminationGracePeriodSeconds).
	GraceSeconds int
	// Preempted is the worker's exit code after a signal made it save and
	// stop: like a DisruptionTarget, not a failure of the run.
	Preempted int
}

// UsageExit is the worker's exit code for bad input (a manifest it cannot
// read, flags the train command refuses): retrying cannot help, so the pod
// failure policy fails that index at once.
const UsageExit = 2

// The Job's shape, in the order kubectl shows it; only what is set.
type (
	k8sJob struct {
		APIVersion string      `yaml:"apiVersion"`
		Kind       string      `yaml:"kind"`
		Metadata   k8sMetadata `yaml:"metadata"`
		Spec       k8sJobSpec  `yaml:"spec"`
	}
	k8sMetadata struct {
		Name   string            `yaml:"name,omitempty"`
		Labels map[string]string `yaml:"labels,omitempty"`
	}
	k8sJobSpec struct {
		CompletionMode       string              `yaml:"completionMode"`
		Completions          int                 `yaml:"completions"`
		Parallelism          int                 `yaml:"parallelism"`
		BackoffLimitPerIndex int                 `yaml:"backoffLimitPerIndex"`
		PodFailurePolicy     k8sPodFailurePolicy `yaml:"podFailurePolicy"`
		Template             k8sPodTemplate      `yaml:"template"`
	}
	k8sPodFailurePolicy struct {
		Rules []k8sPodFailureRule `yaml:"rules"`
	}
	k8sPodFailureRule struct {
		Action          string               `yaml:"action"`
		OnExitCodes     *k8sOnExitCodes      `yaml:"onExitCodes,omitempty"`
		OnPodConditions []k8sOnPodConditions `yaml:"onPodConditions,omitempty"`
	}
	k8sOnExitCodes struct {
		ContainerName string `yaml:"containerName,omitempty"`
		Operator      string `yaml:"operator"`
		Values        []int  `yaml:"values"`
	}
	k8sOnPodConditions struct {
		Type string `yaml:"type"`
	}
	k8sPodTemplate struct {
		Metadata k8sMetadata `yaml:"metadata"`
		Spec     k8sPodSpec  `yaml:"spec"`
	}
	k8sPodSpec struct {
		RestartPolicy                 string         `yaml:"restartPolicy"`
		TerminationGracePeriodSeconds int            `yaml:"terminationGracePeriodSeconds"`
		Containers                    []k8sContainer `yaml:"containers"`
		Volumes                       []k8sVolume    `yaml:"volumes"`
	}
	k8sContainer struct {
		Name         string           `yaml:"name"`
		Image        string           `yaml:"image"`
		Command      []string         `yaml:"command"`
		VolumeMounts []k8sVolumeMount `yaml:"volumeMounts"`
	}
	k8sVolumeMount struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	}
	k8sVolume struct {
		Name                  string       `yaml:"name"`
		PersistentVolumeClaim k8sClaimName `yaml:"persistentVolumeClaim"`
	}
	k8sClaimName struct {
		ClaimName string `yaml:"claimName"`
	}
)

// dnsLabel is what a Job's name (and a claim's) may be: an RFC 1123 label.
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// containerName is the worker's container, named in the failure policy.
const containerName = "simdrl"

// YAML is the Indexed Job as a manifest for kubectl apply -f.
func (k Kubernetes) YAML() ([]byte, error) {
	switch {
	case k.Entries < 1:
		return nil, errors.New("the manifest has no entries: nothing to run")
	case k.Image == "":
		return nil, errors.New("--image is required: an image with simdrl in it")
	case !dnsLabel.MatchString(k.Name) || len(k.Name) > 63:
		return nil, fmt.Errorf("--name %q: a Job's name is lower-case letters, digits and '-' (at most 63)", k.Name)
	case !dnsLabel.MatchString(k.Claim) || len(k.Claim) > 253:
		return nil, fmt.Errorf("--claim %q: a claim's name is lower-case letters, digits and '-'", k.Claim)
	case k.Parallelism < 1:
		return nil, fmt.Errorf("--parallelism %d: it must be at least 1", k.Parallelism)
	case k.BackoffLimitPerIndex < 0:
		return nil, fmt.Errorf("--backoff-limit-per-index %d: it must be 0 or more", k.BackoffLimitPerIndex)
	case k.GraceSeconds < 1:
		return nil, fmt.Errorf("--grace %d: a pod needs at least a second to save", k.GraceSeconds)
	case !path.IsAbs(k.Dir) || !path.IsAbs(k.Manifest):
		return nil, fmt.Errorf("the pod's paths must be absolute: -dir %q, --pod-manifest %q", k.Dir, k.Manifest)
	case k.Preempted <= 0 || k.Preempted == UsageExit || k.Preempted > 255:
		return nil, fmt.Errorf("the worker's preempted exit code %d is not an exit code apart from bad usage", k.Preempted)
	case len(k.Command) == 0:
		return nil, errors.New("no worker command")
	}
	for _, v := range append([]string{k.Image, k.Dir, k.Manifest}, k.Command...) {
		if err := oneLine("the value", v); err != nil {
			return nil, err
		}
	}
	labels := map[string]string{"app.kubernetes.io/name": "simdrl-sweep", "app.kubernetes.io/instance": k.Name}
	job := k8sJob{
		APIVersion: "batch/v1", Kind: "Job",
		Metadata: k8sMetadata{Name: k.Name, Labels: labels},
		Spec: k8sJobSpec{
			CompletionMode: "Indexed", Completions: k.Entries, Parallelism: min(k.Parallelism, k.Entries),
			BackoffLimitPerIndex: k.BackoffLimitPerIndex,
			PodFailurePolicy: k8sPodFailurePolicy{Rules: []k8sPodFailureRule{
				// A pod evicted or preempted saved its run (SIGTERM): not a failure, the index runs again.
				{Action: "Ignore", OnPodConditions: []k8sOnPodConditions{{Type: "DisruptionTarget"}}},
				// Bad input fails the same way every time: no retries.
				{Action: "FailIndex", OnExitCodes: &k8sOnExitCodes{ContainerName: containerName, Operator: "In", Values: []int{UsageExit}}},
				// Stopped by a signal with its run saved (a node shutting down, a
				// pod deleted without a disruption condition): not a failure either.
				{Action: "Ignore", OnExitCodes: &k8sOnExitCodes{ContainerName: containerName, Operator: "In", Values: []int{k.Preempted}}},
			}},
			Template: k8sPodTemplate{
				Metadata: k8sMetadata{Labels: labels},
				Spec: k8sPodSpec{
					RestartPolicy:                 "Never", // a pod failure policy requires it
					TerminationGracePeriodSeconds: k.GraceSeconds,
					Containers: []k8sContainer{{
						Name: containerName, Image: k.Image,
						// No --index: sweep run reads JOB_COMPLETION_INDEX.
						Command:      append(append([]string{}, k.Command...), "sweep", "run", k.Manifest, "--dir", k.Dir),
						VolumeMounts: []k8sVolumeMount{{Name: "sweep", MountPath: k.Dir}},
					}},
					Volumes: []k8sVolume{{Name: "sweep", PersistentVolumeClaim: k8sClaimName{ClaimName: k.Claim}}},
				},
			},
		},
	}
	body, err := yaml.Marshal(job)
	if err != nil {
		return nil, err
	}
	head := fmt.Sprintf("# Written by simdrl sweep k8s: %d entries of %s, each run in %s/<id>/ on the claim %s.\n"+
		"# kubectl apply -f this file; a preempted pod saves its run and its index runs again.\n", k.Entries, k.Manifest, k.Dir, k.Claim)
	return append([]byte(head), body...), nil
}
