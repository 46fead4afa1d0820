// env.cu: the environment's scoring as a standalone kernel (the rollout kernel
// calls the same simdrl_env_run at the end of each episode). Tests run it on
// every golden environment case and compare with env.Run bit for bit.
#include "env.cuh"

// One program per thread: program i is actions[i*maxlen .. i*maxlen+len[i]).
extern "C" __global__ void simdrl_env_score(const int32_t *tasks, const int32_t *actions, const int32_t *len, int n, int maxlen, double *reward,
                                            int32_t *steps, int32_t *correct) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const simdrl_outcome o = simdrl_env_run(tasks + i * SIMDRL_TASK_WORDS, actions + (size_t)i * maxlen, 1, len[i]);
    reward[i] = o.reward;
    steps[i] = o.steps;
    correct[i] = o.correct;
}
