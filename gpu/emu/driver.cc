// driver.cc: a CPU stand-in for the CUDA driver library (libcuda.so.1), for
// testing gpu/ on machines without a GPU. It implements the ~20 driver calls
// gpu/driver.go makes: memory is host memory, a "module" is the table of
// kernels compiled into this library from gpu/kernels/*.cu (the PTX handed to
// cuModuleLoadDataEx is ignored), and cuLaunchKernel runs every block in turn,
// each CUDA thread a fiber. Slow, exact in control flow and synchronisation,
// float math from the C library instead of CUDA's (results agree with a GPU to
// rounding, not bit for bit), and blind to races (fibers interleave only at
// barriers: compute-sanitizer's racecheck on a GPU covers those).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <csetjmp>
#include <setjmp.h>
#include <ucontext.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include "emu.h"

dim3 threadIdx, blockIdx, blockDim, gridDim;
char *simdrl_emu_smem;

// The kernels, rewritten by build.sh (dynamic shared memory) into emu_src/.
#include "emu_src/backward.cu"
#include "emu_src/env.cu"
#include "emu_src/fields.cu"
#include "emu_src/hoststep.cu"
#include "emu_src/optim.cu"
#include "emu_src/ppo.cu"
#include "emu_src/rollout.cu"
#include "emu_src/tasks.cu"

// A kernel: its name and a call that unpacks cuLaunchKernel's parameter
// pointers into the function's argument types.
struct Kernel {
    std::function<void(void **)> call;
};

template <typename... A, std::size_t... I> static void invoke(void (*f)(A...), void **p, std::index_sequence<I...>) {
    f(*static_cast<std::remove_cv_t<std::remove_reference_t<A>> *>(p[I])...);
}
template <typename... A> static Kernel kernel(void (*f)(A...)) {
    return Kernel{[f](void **p) { invoke(f, p, std::index_sequence_for<A...>{}); }};
}

#define K(name) {#name, kernel(name)}
static const std::map<std::string, Kernel> kernels = {
    SIMDRL_KERNELS(K) // args.cuh: every entry point of gpu/internal/abi's table
};

// A block's CUDA threads are fibers on the calling OS thread: the scheduler
// resumes each in turn until it reaches __syncthreads() or returns, and
// starts the next round when every fiber has; so a barrier is a round,
// exactly as CUDA defines it. A fiber lives for the whole process: after its
// thread of a block returns, it parks, and its next resume runs the next
// block's (or launch's) thread.
//
// On x86-64 the switch is emu_switch, six pushes, a stack swap and six
// pops; elsewhere _setjmp/_longjmp (ucontext only to enter a new fiber
// once). glibc's swapcontext saves and restores the signal mask with a
// system call, and at two per barrier per thread that was 87% of the GPU
// tests' time; under AddressSanitizer (build.sh SIMDRL_EMU_ASAN=1) its
// interceptor of longjmp makes a system call per switch too (sigaltstack,
// in __asan_handle_no_return), about 50 times the plain build's time.
// Under ASan each switch is told to it through its fiber interface, as it
// asks of user-level threads: else a jump to another stack looks to it
// like a stack gone wrong.
#if defined(__x86_64__)
#define EMU_SWITCH 1
// emu_switch saves the callee-saved registers on the running stack, stores
// its top in *from, and resumes the stack to, saved the same way (or made
// so by new_fiber): the System V ABI leaves everything else to the caller.
extern "C" void emu_switch(void **from, void *to);
asm(R"(
    .text
    .p2align 4
    .type emu_switch, @function
emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size emu_switch, .-emu_switch
)");
#endif

struct Fiber {
#if EMU_SWITCH
    void *sp = nullptr; // the parked fiber's stack top (emu_switch)
#else
    ucontext_t uc;
    jmp_buf jb;
#endif
    bool started = false;
    std::unique_ptr<char[]> stack;
    void *asan_fake = nullptr; // ASan's fake stack of this fiber while it is parked
};
static std::vector<std::unique_ptr<Fiber>> fibers;
static std::vector<char> finished;
static unsigned running;
static const Kernel *current_kernel;
static void **current_params;
static const std::size_t stack_bytes = 256 << 10;
#if EMU_SWITCH
static void *scheduler_sp;
#else
static jmp_buf scheduler;
#endif

#if defined(__SANITIZE_ADDRESS__)
// The scheduler runs on whichever OS thread launched the kernel: each arrival
// in a fiber records that stack for the way back.
static void *scheduler_fake;
static const void *scheduler_bottom;
static std::size_t scheduler_size;
static void to_fiber(Fiber &f) { __sanitizer_start_switch_fiber(&scheduler_fake, f.stack.get(), stack_bytes); }
static void in_scheduler() { __sanitizer_finish_switch_fiber(scheduler_fake, nullptr, nullptr); }
static void to_scheduler(Fiber &f) { __sanitizer_start_switch_fiber(&f.asan_fake, scheduler_bottom, scheduler_size); }
static void in_fiber(Fiber &f) { __sanitizer_finish_switch_fiber(f.asan_fake, &scheduler_bottom, &scheduler_size); }
#else
static void to_fiber(Fiber &) {}
static void in_scheduler() {}
static void to_scheduler(Fiber &) {}
static void in_fiber(Fiber &) {}
#endif

#if EMU_SWITCH
// enter runs fiber f until it leaves (a barrier, or its thread's end).
static void enter(Fiber &f) {
    to_fiber(f);
    f.started = true;
    emu_switch(&scheduler_sp, f.sp);
    in_scheduler();
}

// leave parks fiber f and returns to the scheduler; f's next enter returns
// from it.
static void leave(Fiber &f) {
    to_scheduler(f);
    emu_switch(&f.sp, scheduler_sp);
    in_fiber(f);
}
#else
static void enter(Fiber &f) {
    if (_setjmp(scheduler)) { // the fiber left
        in_scheduler();
        return;
    }
    to_fiber(f);
    if (f.started) _longjmp(f.jb, 1);
    f.started = true;
    setcontext(&f.uc);
}

static void leave(Fiber &f) {
    if (_setjmp(f.jb)) {
        in_fiber(f);
        return;
    }
    to_scheduler(f);
    _longjmp(scheduler, 1);
}
#endif

void __syncthreads() { leave(*fibers[running]); }

// __syncthreads_or: the OR of every thread's predicate at the barrier. The
// scheduler moves a round's OR to or_result when every fiber has reached the
// barrier, before any resumes (Launch), so a fiber that runs on to the next
// barrier cannot change what the others read.
static int or_acc, or_result;
int __syncthreads_or(int p) {
    or_acc |= p != 0;
    __syncthreads();
    return or_result;
}

static void fiber_main() {
    in_fiber(*fibers[running]);
    for (;;) {
        current_kernel->call(current_params);
        finished[running] = 1;
        leave(*fibers[running]);
    }
}

static Fiber *new_fiber() {
    auto f = std::make_unique<Fiber>();
    f->stack.reset(new char[stack_bytes]);
#if EMU_SWITCH
    // A stack that emu_switch resumes into fiber_main as if it had been
    // called there: six zero registers, fiber_main's address for the ret,
    // and below the 16-aligned top a return address it never uses.
    auto top = reinterpret_cast<std::uintptr_t>(f->stack.get() + stack_bytes) & ~std::uintptr_t(15);
    auto sp = reinterpret_cast<void **>(top);
    *--sp = nullptr;
    *--sp = reinterpret_cast<void *>(fiber_main);
    for (int i = 0; i < 6; i++) *--sp = nullptr;
    f->sp = sp;
#else
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = f->stack.get();
    f->uc.uc_stack.ss_size = stack_bytes;
    f->uc.uc_link = nullptr; // fiber_main never returns
    makecontext(&f->uc, fiber_main, 0);
#endif
    fibers.push_back(std::move(f));
    return fibers.back().get();
}

typedef int CUresult;
enum { OK = 0, INVALID_VALUE = 1, NOT_FOUND = 500, LAUNCH_FAILED = 719 };

extern "C" {
CUresult cuInit(unsigned) { return OK; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return OK; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return OK; }
CUresult cuDeviceGet(int *d, int i) { *d = i; return i == 0 ? OK : INVALID_VALUE; }
CUresult cuDeviceGetName(char *s, int n, int) { snprintf(s, n, "simdrl CPU emulator (not a GPU)"); return OK; }
// The attributes gpu/driver.go asks for, as an H200 reports them, so that the
// tile plans are the ones a real run uses.
CUresult cuDeviceGetAttribute(int *v, int attr, int) {
    switch (attr) {
    case 16: *v = 132; return OK;      // multiprocessors
    case 75: *v = 9; return OK;        // compute capability major
    case 76: *v = 0; return OK;        // minor
    case 97: *v = 232448; return OK;   // shared memory a block may opt in to
    }
    return INVALID_VALUE;
}
CUresult cuDeviceTotalMem_v2(size_t *b, int) { *b = size_t(8) << 30; return OK; }
CUresult cuCtxCreate_v2(void **c, unsigned, int) { *c = (void *)&kernels; return OK; }
CUresult cuCtxDestroy_v2(void *) { return OK; }
CUresult cuCtxSynchronize(void) { return OK; }
CUresult cuModuleLoadDataEx(void **m, const void *, unsigned, int *, void **) { *m = (void *)&kernels; return OK; }
CUresult cuModuleGetFunction(void **f, void *, const char *name) {
    auto it = kernels.find(name);
    if (it == kernels.end()) return NOT_FOUND;
    *f = (void *)&it->second;
    return OK;
}
CUresult cuModuleUnload(void *) { return OK; }
CUresult cuFuncSetAttribute(void *, int, int) { return OK; }
CUresult cuMemAlloc_v2(unsigned long long *p, size_t n) {
    void *q = aligned_alloc(256, (n + 255) / 256 * 256);
    if (!q) return 2; // CUDA_ERROR_OUT_OF_MEMORY
    *p = (unsigned long long)q;
    return OK;
}
CUresult cuMemFree_v2(unsigned long long p) { free((void *)p); return OK; }
CUresult cuMemcpyHtoD_v2(unsigned long long d, const void *s, size_t n) { memcpy((void *)d, s, n); return OK; }
CUresult cuMemcpyDtoH_v2(void *d, unsigned long long s, size_t n) { memcpy(d, (const void *)s, n); return OK; }
CUresult cuMemsetD8_v2(unsigned long long d, unsigned char v, size_t n) { memset((void *)d, v, n); return OK; }

// cuLaunchKernel runs the grid block by block, on the calling thread. Each
// block gets fresh dynamic shared memory filled with 0xff bytes (NaN as
// floats), so a kernel that reads shared memory it never wrote shows it.
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned smem, void *,
                        void **params, void **) {
    const Kernel *k = static_cast<const Kernel *>(f);
    const unsigned nthr = bx * by * bz;
    if (nthr == 0 || nthr > 1024 || gx == 0 || gy == 0 || gz == 0) return INVALID_VALUE;
    std::unique_ptr<char, decltype(&free)> dyn((char *)aligned_alloc(16, (smem + 16) / 16 * 16), free);
    gridDim = dim3{gx, gy, gz};
    blockDim = dim3{bx, by, bz};
    for (unsigned z = 0; z < gz; z++)
        for (unsigned y = 0; y < gy; y++)
            for (unsigned x = 0; x < gx; x++) {
                memset(dyn.get(), 0xff, smem);
                simdrl_emu_smem = dyn.get();
                blockIdx = dim3{x, y, z};
                current_kernel = k;
                current_params = params;
                while (fibers.size() < nthr) new_fiber();
                finished.assign(nthr, 0);
                or_acc = 0;
                for (unsigned left = nthr; left > 0;) {
                    left = 0;
                    for (unsigned t = 0; t < nthr; t++) {
                        if (finished[t]) continue;
                        running = t;
                        threadIdx = dim3{t % bx, (t / bx) % by, t / (bx * by)};
                        enter(*fibers[t]);
                        left += !finished[t];
                    }
                    or_result = or_acc; // the round's barrier reached by all
                    or_acc = 0;
                }
            }
    return OK;
}

// cuda.h's names for the codes gpu/errors.go knows.
static const char *error_name(CUresult r) {
    static const std::map<int, const char *> names = {
        {0, "CUDA_SUCCESS"}, {1, "CUDA_ERROR_INVALID_VALUE"}, {2, "CUDA_ERROR_OUT_OF_MEMORY"},
        {3, "CUDA_ERROR_NOT_INITIALIZED"}, {4, "CUDA_ERROR_DEINITIALIZED"}, {34, "CUDA_ERROR_STUB_LIBRARY"},
        {35, "CUDA_ERROR_INSUFFICIENT_DRIVER"}, {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"}, {100, "CUDA_ERROR_NO_DEVICE"},
        {101, "CUDA_ERROR_INVALID_DEVICE"}, {200, "CUDA_ERROR_INVALID_IMAGE"}, {201, "CUDA_ERROR_INVALID_CONTEXT"},
        {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"}, {218, "CUDA_ERROR_INVALID_PTX"}, {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
        {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"}, {300, "CUDA_ERROR_INVALID_SOURCE"}, {400, "CUDA_ERROR_INVALID_HANDLE"},
        {500, "CUDA_ERROR_NOT_FOUND"}, {700, "CUDA_ERROR_ILLEGAL_ADDRESS"}, {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
        {702, "CUDA_ERROR_LAUNCH_TIMEOUT"}, {719, "CUDA_ERROR_LAUNCH_FAILED"}, {801, "CUDA_ERROR_NOT_SUPPORTED"},
        {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"}, {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"}, {999, "CUDA_ERROR_UNKNOWN"},
    };
    auto it = names.find(r);
    return it == names.end() ? "CUDA_ERROR_UNKNOWN" : it->second;
}
CUresult cuGetErrorName(CUresult r, const char **s) { *s = error_name(r); return OK; }
CUresult cuGetErrorString(CUresult r, const char **s) { *s = error_name(r); return OK; }
}
