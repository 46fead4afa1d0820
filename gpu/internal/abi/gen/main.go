// Command gen writes gpu/kernels/args.cuh from gpu/internal/abi's table; it
// runs from the gpu folder (go generate ./gpu/).
package main

import (
	"log"
	"os"

	"github.com/simdrl/simdrl/gpu/internal/abi"
)

func main() {
	if err := os.WriteFile(abi.HeaderPath, []byte(abi.Header()), 0o644); err != nil {
		log.Fatal(err)
	}
}
