package realparts

import (
	"errors"
	"os"
	"testing"
)

func errorAs(err error, target any) bool { return err != nil && errors.As(err, target) }

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
