package kernels

import "reflect"

// funcAddr is a function value's code pointer, to tell kernels apart.
func funcAddr(f any) uintptr { return reflect.ValueOf(f).Pointer() }
