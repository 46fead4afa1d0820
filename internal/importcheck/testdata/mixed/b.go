package mixed

import "strings"

var _ = strings.Split
