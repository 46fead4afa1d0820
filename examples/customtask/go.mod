module github.com/simdrl/simdrl/examples/customtask

go 1.26.0

require (
	github.com/simdrl/simdrl v0.0.0
	github.com/stretchr/testify v1.12.1
)

replace github.com/simdrl/simdrl => ../..
