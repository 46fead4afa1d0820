module github.com/simdrl/simdrl/examples/customtask

go 1.26.0

require (
	github.com/simdrl/simdrl v0.0.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/simdrl/simdrl => ../..
