package cluster

import (
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func testKubernetes() Kubernetes {
	return Kubernetes{Name: "seeds", Image: "registry.example/simdrl:1", Command: []string{"simdrl"},
		Manifest: "/sweep/m.jsonl", Dir: "/sweep", Claim: "sweep-data", Entries: 20, Parallelism: 4,
		BackoffLimitPerIndex: 3, GraceSeconds: 120, Preempted: 75}
}

// TestKubernetesJobFields parses the YAML back as a generic document (as
// kubectl would read it) and checks each field the Indexed Job depends on.
func TestKubernetesJobFields(t *testing.T) {
	k := testKubernetes()
	out, err := k.YAML()
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, yaml.Unmarshal(out, &doc))
	require.Equal(t, "batch/v1", doc["apiVersion"])
	require.Equal(t, "Job", doc["kind"])
	require.Equal(t, "seeds", doc["metadata"].(map[string]any)["name"])
	spec := doc["spec"].(map[string]any)
	require.Equal(t, "Indexed", spec["completionMode"])
	require.Equal(t, k.Entries, spec["completions"])
	require.Equal(t, k.Parallelism, spec["parallelism"])
	require.Equal(t, k.BackoffLimitPerIndex, spec["backoffLimitPerIndex"])

	rules := spec["podFailurePolicy"].(map[string]any)["rules"].([]any)
	require.Len(t, rules, 3)
	ignore := rules[0].(map[string]any)
	require.Equal(t, "Ignore", ignore["action"])
	require.Equal(t, []any{map[string]any{"type": "DisruptionTarget"}}, ignore["onPodConditions"])
	fail := rules[1].(map[string]any)
	require.Equal(t, "FailIndex", fail["action"])
	require.Equal(t, map[string]any{"containerName": "simdrl", "operator": "In", "values": []any{2}}, fail["onExitCodes"])
	preempted := rules[2].(map[string]any)
	require.Equal(t, "Ignore", preempted["action"])
	require.Equal(t, map[string]any{"containerName": "simdrl", "operator": "In", "values": []any{75}}, preempted["onExitCodes"])

	pod := spec["template"].(map[string]any)["spec"].(map[string]any)
	require.Equal(t, "Never", pod["restartPolicy"])
	require.Equal(t, 120, pod["terminationGracePeriodSeconds"])
	containers := pod["containers"].([]any)
	require.Len(t, containers, 1)
	c := containers[0].(map[string]any)
	require.Equal(t, "simdrl", c["name"])
	require.Equal(t, k.Image, c["image"])
	require.Equal(t, []any{"simdrl", "sweep", "run", "/sweep/m.jsonl", "--dir", "/sweep"}, c["command"])
	require.Equal(t, []any{map[string]any{"name": "sweep", "mountPath": "/sweep"}}, c["volumeMounts"])
	require.Equal(t, []any{map[string]any{"name": "sweep", "persistentVolumeClaim": map[string]any{"claimName": "sweep-data"}}}, pod["volumes"])
}

func TestKubernetesParallelismAtMostEntries(t *testing.T) {
	k := testKubernetes()
	k.Entries, k.Parallelism = 3, 50
	out, err := k.YAML()
	require.NoError(t, err)
	var job k8sJob
	require.NoError(t, yaml.Unmarshal(out, &job))
	require.Equal(t, 3, job.Spec.Parallelism)
}

func TestKubernetesRefuses(t *testing.T) {
	for name, change := range map[string]func(*Kubernetes){
		"no entries":    func(k *Kubernetes) { k.Entries = 0 },
		"no image":      func(k *Kubernetes) { k.Image = "" },
		"bad name":      func(k *Kubernetes) { k.Name = "My_Sweep" },
		"bad claim":     func(k *Kubernetes) { k.Claim = "" },
		"parallelism 0": func(k *Kubernetes) { k.Parallelism = 0 },
		"backoff < 0":   func(k *Kubernetes) { k.BackoffLimitPerIndex = -1 },
		"grace 0":       func(k *Kubernetes) { k.GraceSeconds = 0 },
		"relative dir":  func(k *Kubernetes) { k.Dir = "sweep" },
		"newline image": func(k *Kubernetes) { k.Image = "a\nb" },
		"preempted 2":   func(k *Kubernetes) { k.Preempted = UsageExit },
	} {
		k := testKubernetes()
		change(&k)
		_, err := k.YAML()
		require.Error(t, err, name)
	}
}
