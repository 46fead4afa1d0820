package mixed

import "example.com/testonly"

var _ = testonly.Z
