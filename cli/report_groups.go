package cli

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/simdrl/simdrl/trainer"
)

// seedConfig is one configuration's runs: runs whose configs differ only
// in the seed (and -threads, which changes no result).
type seedConfig struct {
	label  string         // what sets it apart from the others ("lr=0.0005"), or its task and recipe alone
	config map[string]any // the config, seed and threads left out
	runs   []*seedRun     // by seed
}

// configKey is a run's config without the seed and the threads, as JSON
// (the same configuration gives the same key) and as a map.
func configKey(cfg trainer.Config) (string, map[string]any) {
	cfg.Seed, cfg.Threads = 0, 0
	b, _ := json.Marshal(cfg)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	delete(m, "seed")
	delete(m, "threads")
	b, _ = json.Marshal(m) // map keys sorted: one spelling per configuration
	return string(b), m
}

// groupRuns sorts runs into configurations, refusing runs of different
// tasks (their scores do not compare) and a seed that two files report for
// one configuration (the same run twice, or a run and its resumed copy).
func groupRuns(runs []*seedRun) ([]*seedConfig, error) {
	first := runs[0]
	byKey := map[string]*seedConfig{}
	for _, r := range runs {
		if r.rep.Config.Task != first.rep.Config.Task || !slices.Equal(r.rep.Levels, first.rep.Levels) {
			return nil, fmt.Errorf("mixed tasks: %s is a run of %s, %s of %s: report one task at a time",
				first.path, taskWords(first.rep), r.path, taskWords(r.rep))
		}
		key, m := configKey(r.rep.Config)
		c := byKey[key]
		if c == nil {
			c = &seedConfig{config: m}
			byKey[key] = c
		}
		for _, o := range c.runs {
			if o.rep.Config.Seed == r.rep.Config.Seed {
				return nil, fmt.Errorf("%s and %s are both seed %d of one configuration: keep one (a resumed run's report replaces the interrupted one's)", o.path, r.path, r.rep.Config.Seed)
			}
		}
		c.runs = append(c.runs, r)
	}
	configs := slices.Collect(maps.Values(byKey))
	labelConfigs(configs, first.rep)
	slices.SortFunc(configs, func(a, b *seedConfig) int { return strings.Compare(a.label, b.label) })
	for _, c := range configs {
		slices.SortFunc(c.runs, func(a, b *seedRun) int {
			return cmp.Or(cmp.Compare(a.rep.Config.Seed, b.rep.Config.Seed), strings.Compare(a.path, b.path))
		})
	}
	return configs, nil
}

// taskWords names a run's task and levels for a message.
func taskWords(rep *trainer.Report) string {
	s := rep.Config.Task
	if rep.Config.TaskSpec != "" {
		s += " (" + rep.Config.TaskSpec + ")"
	}
	return fmt.Sprintf("task %s, levels %s", s, strings.Join(rep.Levels, ", "))
}

// labelConfigs names each configuration by the config keys whose values
// differ between them ("lr=0.0005 updates=3000"); a lone configuration by
// its recipe.
func labelConfigs(configs []*seedConfig, rep *trainer.Report) {
	if len(configs) == 1 {
		configs[0].label = rep.Config.Recipe + " recipe"
		return
	}
	var differ []string
	for k := range configs[0].config {
		for _, c := range configs[1:] {
			if !jsonEqual(c.config[k], configs[0].config[k]) {
				differ = append(differ, k)
				break
			}
		}
	}
	for _, c := range configs[1:] { // keys only some configs have
		for k := range c.config {
			if _, ok := configs[0].config[k]; !ok && !slices.Contains(differ, k) {
				differ = append(differ, k)
			}
		}
	}
	slices.Sort(differ)
	for _, c := range configs {
		var parts []string
		for _, k := range differ {
			v, ok := c.config[k]
			if !ok {
				v = "unset"
			}
			b, _ := json.Marshal(v)
			parts = append(parts, k+"="+strings.Trim(string(b), `"`))
		}
		c.label = strings.Join(parts, " ")
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
