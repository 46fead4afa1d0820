package trainer

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/stretchr/testify/require"
)

// TestEveryOmittedConfigKeyReadsBack: a config field written only when it
// is set (omitempty) is absent from the template ReadCheckpointConfig
// checks a checkpoint against, so it must be a known added key: set to a
// non-zero value, each reads back from a checkpoint's config. (stop_from,
// which every tape run sets, was not: its checkpoints loaded as weights
// only, with the default task, and did not resume.)
func TestEveryOmittedConfigKeyReadsBack(t *testing.T) {
	typ := reflect.TypeFor[Config]()
	omitted := 0
	for i := 0; i < typ.NumField(); i++ {
		tag := typ.Field(i).Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if !strings.Contains(opts, "omitempty") {
			continue
		}
		omitted++
		cfg := DefaultRecipe()
		f := reflect.ValueOf(&cfg).Elem().Field(i)
		switch f.Kind() {
		case reflect.Int:
			f.SetInt(7)
		case reflect.Float64:
			f.SetFloat(0.5)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString(ContextRead)
		default:
			t.Fatalf("field %s: kind %v not covered", typ.Field(i).Name, f.Kind())
		}
		raw, err := json.Marshal(cfg)
		require.NoError(t, err)
		require.Contains(t, string(raw), `"`+name+`"`)
		got, err := ReadCheckpointConfig(&checkpoint.File{Metadata: map[string]string{"format": checkpointFormat, "config": string(raw)}})
		require.NoError(t, err, "field %s", name)
		require.Equal(t, cfg, got, "field %s", name)
	}
	require.Positive(t, omitted)
}
