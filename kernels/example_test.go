package kernels_test

import (
	"fmt"

	"github.com/simdrl/simdrl/kernels"
)

// C = alpha·A·B + beta·C on row-major matrices: A is 2×3, B is 3×4, C is
// 2×4 stored with a leading dimension of 5 (the fifth column is left alone).
// Small integers are exact in float32, so every backend prints the same.
func ExampleSgemmNN() {
	a := []float32{
		1, 2, 3,
		4, 5, 6,
	}
	b := []float32{
		1, 0, 2, -1,
		0, 1, 1, 2,
		3, -2, 0, 1,
	}
	c := []float32{
		1, 1, 1, 1, 9,
		0, 0, 0, 0, 9,
	}
	m, n, k := 2, 4, 3
	kernels.SgemmNN(m, n, k, 2, a, 3, b, 4, 1, c, 5)
	for i := range m {
		fmt.Println(c[i*5 : i*5+n])
	}
	fmt.Println("untouched:", c[4], c[9])
	// Output:
	// [21 -7 9 13]
	// [44 -14 26 24]
	// untouched: 9 9
}
