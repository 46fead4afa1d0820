package cluster

import (
	"fmt"
	"strings"
)

// shellQuote quotes s for bash as one word: single quotes, each ' as '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellWords quotes each of args.
func shellWords(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// oneLine refuses a value that would break out of its line in a script or
// a directive (a newline, a NUL).
func oneLine(what, s string) error {
	if strings.ContainsAny(s, "\n\r\x00") {
		return fmt.Errorf("%s %q: a newline or NUL in it would break the script", what, s)
	}
	return nil
}
