// tasks.cu: task sampling from the counter-based stream (philox.cuh). The
// rollout kernel draws its tasks itself; this kernel exposes the same draw so
// that tests can compare the GPU's Philox with the rng package bit for bit.
#include "args.cuh"
#include "philox.cuh"

// One episode per thread: tasks[b*SIMDRL_TASK_WORDS..] is the seed task's
// instance record of episode b (philox.cuh's simdrl_draw_task).
// fixed_level >= 0 plays that level; otherwise the level is drawn as the mixed
// curriculum does (mix, unlocked, cdf0, cdf1).
extern "C" __global__ void simdrl_draw_tasks(SIMDRL_DRAW_TASKS_PARAMS) {
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= n) return;
    const int level = fixed_level >= 0 ? fixed_level : simdrl_draw_level(k0, k1, round, (uint32_t)b, mix, unlocked, cdf0, cdf1);
    simdrl_draw_task(k0, k1, round, (uint32_t)b, purpose, level, tasks + b * SIMDRL_TASK_WORDS);
}

// One episode per thread: u[t*n+b] = Uniform(round, b, t, PurposeAction), the
// numbers a sampling rollout uses.
extern "C" __global__ void simdrl_action_uniforms(SIMDRL_ACTION_UNIFORMS_PARAMS) {
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= n) return;
    for (int t = 0; t < T; t++) u[t * n + b] = simdrl_uniform(k0, k1, round, (uint32_t)b, (uint32_t)t, SIMDRL_PURPOSE_ACTION);
}
