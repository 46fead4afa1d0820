module github.com/simdrl/simdrl

go 1.26.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/spf13/pflag v1.1.0
	github.com/stretchr/testify v1.12.1
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.41.0 // indirect
)
