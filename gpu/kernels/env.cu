// env.cu: the tasks' scoring as a standalone kernel (the rollout kernel calls
// the same simdrl_score at the end of each episode). Tests run it on every
// golden environment case and on calculator programs and compare with the
// CPU's env.Run and calc.Run bit for bit.
#include "args.cuh"
#include "calc.cuh"

// One program per thread: program i is actions[i*maxlen .. i*maxlen+len[i])
// on the instance tasks[i*SIMDRL_TASK_WORDS ..]; scorer, ops, V and
// partial_credit as the rollout's.
extern "C" __global__ void simdrl_env_score(SIMDRL_ENV_SCORE_PARAMS) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const simdrl_outcome o = simdrl_score(scorer, tasks + (size_t)i * SIMDRL_TASK_WORDS, ops, V, partial_credit, actions + (size_t)i * maxlen, 1, len[i]);
    reward[i] = o.reward;
    steps[i] = o.steps;
    correct[i] = o.correct;
}
