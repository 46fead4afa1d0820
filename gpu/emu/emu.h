// emu.h: just enough of CUDA C++ to compile gpu/kernels/*.cu for the CPU
// (force-included by build.sh). A block's threads are fibers and
// __syncthreads() switches to the next (driver.cc); blocks run one at a time,
// so a static array is exactly one block's shared memory.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ static

struct float2 {
    float x, y;
};
struct float4 {
    float x, y, z, w;
};
struct dim3 {
    unsigned x, y, z;
};

extern dim3 threadIdx, blockIdx, blockDim, gridDim;
// The running block's dynamic shared memory: build.sh rewrites each
// `extern __shared__ T name[];` into `T *name = (T *)simdrl_emu_smem;`.
extern char *simdrl_emu_smem;
void __syncthreads();
int __syncthreads_or(int p);

using std::max;
using std::min;
