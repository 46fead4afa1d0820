package mixed

import (
	"fmt"

	"example.com/allowed"
	"example.com/other"
)

var _, _, _ = fmt.Sprint, allowed.X, other.Y
