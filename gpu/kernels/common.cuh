// common.cuh: definitions shared by every kernel family, and by the host-side
// checks in ../internal/devfn, which compile the *.cuh headers as plain C to
// compare them with the Go packages (rng, env, kernels, trainer) on the CPU.
//
// Everything in the headers is written in the common subset of C99 and CUDA
// C++: no templates, no references, no CUDA intrinsics outside #ifdef
// __CUDA_ARCH__.
#ifndef SIMDRL_COMMON_CUH
#define SIMDRL_COMMON_CUH

#include <stdint.h>

#ifdef __CUDACC__
#define SIMDRL_HD static __host__ __device__ __forceinline__
#else
#include <math.h>
#define SIMDRL_HD static inline
#endif

// float64 operations that must round after every step, as Go does: nvcc would
// otherwise contract a*b+c into one fused multiply-add and change the last bit
// of a reward.
#ifdef __CUDA_ARCH__
#define SIMDRL_DMUL(a, b) __dmul_rn((a), (b))
#define SIMDRL_DADD(a, b) __dadd_rn((a), (b))
#define SIMDRL_DDIV(a, b) __ddiv_rn((a), (b))
#else
#define SIMDRL_DMUL(a, b) ((a) * (b))
#define SIMDRL_DADD(a, b) ((a) + (b))
#define SIMDRL_DDIV(a, b) ((a) / (b))
#endif

// The seed task's vocabulary (env/tokens.go); CTX is every task's context
// marker and first input (task.CTX).
#define SIMDRL_CTX 10
#define SIMDRL_MUL 11
#define SIMDRL_ADD 12
#define SIMDRL_SUB 13
#define SIMDRL_ANS 14
#define SIMDRL_STO 15
#define SIMDRL_RCL 16
#define SIMDRL_EOS 17
#define SIMDRL_MAX_STEPS 7 // env.MaxSteps
#define SIMDRL_LEVELS 3    // env.NumLevels

// An episode's instance as the kernels store it: task.Instance
// (../../task/task.go) word for word, TASK_WORDS int32 per episode. int64
// fields are two words, low then high. The seed task uses level,
// vars, budget and the first five digits; the calculator all of it but the
// item (which only the host reads) and, for a task that shows a context of
// its own (the expr task), Shown[:NShown], which the policy reads instead of
// the digits (simdrl_rec_ctx_len, simdrl_rec_ctx).
#define SIMDRL_REC_LEVEL 0
#define SIMDRL_REC_VARS 1   // context digits shown
#define SIMDRL_REC_BUDGET 2 // tokens scored, the answer included
#define SIMDRL_REC_DIGITS 3 // SIMDRL_MAX_DIGITS words
#define SIMDRL_REC_TARGET 12
#define SIMDRL_REC_NINNER 14
#define SIMDRL_REC_INNER 16 // SIMDRL_MAX_INNER int64
#define SIMDRL_REC_ITEM 48
#define SIMDRL_REC_NSHOWN 49
#define SIMDRL_REC_SHOWN 50 // SIMDRL_MAX_SHOWN words
// A task whose machine is not the calculator's (tape.cuh) has its data
// (task.Instance.Data[:SIMDRL_MAX_DATA], int64) from word SIMDRL_REC_DATA
// instead of the digits, target and inner values; its vars are 0.
#define SIMDRL_REC_DATA 3
#define SIMDRL_MAX_DATA 22
#define SIMDRL_MAX_DIGITS 8
#define SIMDRL_MAX_INNER 16
#define SIMDRL_MAX_SHOWN 24
#define SIMDRL_TASK_WORDS 74

// A record holds a task's data, and what the kernels index with a field of
// it (a context token, a level, an observation) is clamped into the table
// it indexes: the host refuses such a record first (gpu/buffers.go's pack,
// gpu/scorer.go), and the clamps keep one it missed inside the buffers.
SIMDRL_HD int simdrl_clamp(int x, int lo, int hi) { return x < lo ? lo : (x > hi ? hi : x); }

// The policy's context of a record, the end (CTX) not counted
// (task.Instance.Context): Shown[:NShown] when NShown > 0, else
// Digits[:Vars], at most the words the record holds.
SIMDRL_HD int simdrl_rec_ctx_len(const int32_t *rec) {
    const int shown = rec[SIMDRL_REC_NSHOWN];
    return shown > 0 ? simdrl_clamp(shown, 0, SIMDRL_MAX_SHOWN) : simdrl_clamp(rec[SIMDRL_REC_VARS], 0, SIMDRL_MAX_DIGITS);
}

// simdrl_rec_ctx_len_raw is simdrl_rec_ctx_len of a record already clamped
// (simdrl_rec_clamp: the rollout's copies) or the kernel's own (the seed's
// draws), without a clamp's registers.
SIMDRL_HD int simdrl_rec_ctx_len_raw(const int32_t *rec) {
    return rec[SIMDRL_REC_NSHOWN] > 0 ? rec[SIMDRL_REC_NSHOWN] : rec[SIMDRL_REC_VARS];
}

SIMDRL_HD const int32_t *simdrl_rec_ctx(const int32_t *rec) {
    return rec + (rec[SIMDRL_REC_NSHOWN] > 0 ? SIMDRL_REC_SHOWN : SIMDRL_REC_DIGITS);
}

// simdrl_rec_ctx_tok is the context's token k (k < simdrl_rec_ctx_len) in
// a vocabulary of V.
SIMDRL_HD int simdrl_rec_ctx_tok(const int32_t *rec, int k, int V) { return simdrl_clamp(simdrl_rec_ctx(rec)[k], 0, V - 1); }

// simdrl_rec_clamp clamps, in place, what the rollout indexes with in a
// record the host wrote (its copy in shared memory), so that its context is
// read without a clamp at each token: the context's length within the words
// the record holds, its tokens within the vocabulary of V.
SIMDRL_HD void simdrl_rec_clamp(int32_t *rec, int V) {
    const int n = simdrl_rec_ctx_len(rec);
    rec[rec[SIMDRL_REC_NSHOWN] > 0 ? SIMDRL_REC_NSHOWN : SIMDRL_REC_VARS] = n;
    int32_t *ctx = rec + (rec[SIMDRL_REC_NSHOWN] > 0 ? SIMDRL_REC_SHOWN : SIMDRL_REC_DIGITS);
    for (int k = 0; k < n; k++) ctx[k] = simdrl_clamp(ctx[k], 0, V - 1);
}

// The level embedding (stage_emb row) of an episode of level in a model of
// S of them (task.Stage): a task.Unstaged task's model has one, shared by
// all its levels; every other model has one per level. (A model of one
// level embedding and one level plays level 0 either way.)
SIMDRL_HD int simdrl_stage(int level, int S) { return S == 1 ? 0 : simdrl_clamp(level, 0, S - 1); }

SIMDRL_HD int64_t simdrl_rec_i64(const int32_t *rec, int word) {
    return (int64_t)(((uint64_t)(uint32_t)rec[word + 1] << 32) | (uint64_t)(uint32_t)rec[word]);
}

SIMDRL_HD void simdrl_rec_set_i64(int32_t *rec, int word, int64_t v) {
    rec[word] = (int32_t)(uint32_t)((uint64_t)v & 0xffffffffu);
    rec[word + 1] = (int32_t)(uint32_t)((uint64_t)v >> 32);
}

// How the rollout scores a program (gpu/scorer.go's scorer).
#define SIMDRL_SCORE_SEED 0 // env.cuh: the reference's tool environment
#define SIMDRL_SCORE_CALC 1 // calc.cuh: the calculator's op table
#define SIMDRL_SCORE_TAPE 2 // tape.cuh: the tape task's machine, its tools from the op table

// Per-block statistics written by the rollout kernel (float64 each).
#define SIMDRL_STAT_REWARD 0
#define SIMDRL_STAT_SOLVED 1
#define SIMDRL_STAT_PG 2
#define SIMDRL_STAT_VALUE 3
#define SIMDRL_STAT_ENTROPY 4
#define SIMDRL_STAT_FLAT 5 // a group estimator's groups whose returns are all equal (simdrl_estimate's; the rollout's 0)
#define SIMDRL_NSTATS 6

// What simdrl_finish writes (float64 each), read back by the host.
#define SIMDRL_FIN_REWARD 0
#define SIMDRL_FIN_SOLVED 1
#define SIMDRL_FIN_PG 2
#define SIMDRL_FIN_VALUE 3
#define SIMDRL_FIN_ENTROPY 4
#define SIMDRL_FIN_FLAT 5
#define SIMDRL_FIN_SUMSQ 6
#define SIMDRL_FIN_NORM 7
#define SIMDRL_FIN_SCALE 8
#define SIMDRL_FIN_OK 9
#define SIMDRL_NFIN 9

// The flat parameter layout (gru/params.go): emb V×d, stage_emb S×d (one row
// per level),
// W_ih 3d×d, W_hh 3d×d, b_ih 3d, b_hh 3d, pi.weight V×d, pi.bias V,
// v.weight d, v.bias 1, and with O observations (gru.Config.Observations)
// obs_emb.weight O×d last.
typedef struct {
    int emb, level_emb, wih, whh, bih, bhh, piw, pib, vw, vb, size, obs;
} simdrl_layout;

SIMDRL_HD simdrl_layout simdrl_layout_obs(int V, int d, int S, int O) {
    simdrl_layout l;
    l.emb = 0;
    l.level_emb = l.emb + V * d;
    l.wih = l.level_emb + S * d;
    l.whh = l.wih + 3 * d * d;
    l.bih = l.whh + 3 * d * d;
    l.bhh = l.bih + 3 * d;
    l.piw = l.bhh + 3 * d;
    l.pib = l.piw + V * d;
    l.vw = l.pib + V;
    l.vb = l.vw + d;
    l.obs = l.vb + 1;
    l.size = l.obs + O * d;
    return l;
}

SIMDRL_HD simdrl_layout simdrl_layout_of(int V, int d, int S) { return simdrl_layout_obs(V, d, S, 0); }

// The token table's rows: one per token (O = 0), or one per (token,
// observation) pair, row a·O + o (the GRU's input index, gru's Inputs).
SIMDRL_HD int simdrl_input_rows(int V, int O) { return O > 0 ? V * O : V; }

// simdrl_input is the input row of token a (0..V−1) observed as obs, which
// a task's machine computes from its data: clamped into the O observations
// (O > 0).
SIMDRL_HD int simdrl_input(int a, int O, int obs) { return a * O + simdrl_clamp(obs, 0, O - 1); }

// The most threads a rollout or backward block has (gpu/plan.go's
// maxBlockThreads): the kernels declare it as their launch bound, which lets
// the compiler give each thread up to 128 registers.
#define SIMDRL_MAX_BLOCK_THREADS 512

// Rows of hidden width d are stored in shared memory with a stride rounded up
// to 4 floats, so that 16-byte vector loads can read them at any d.
SIMDRL_HD int simdrl_stride4(int n) { return (n + 3) & ~3; }

// simdrl_carve hands out consecutive regions of dynamic shared memory, each
// starting on a 16-byte boundary; gpu/plan.go's carve mirrors it to size the
// launch, so the two must take the same regions in the same order.
typedef struct {
    char *base;
    unsigned off;
} simdrl_carver;

SIMDRL_HD void *simdrl_carve(simdrl_carver *c, unsigned bytes) {
    void *p = c->base + c->off;
    c->off = (c->off + bytes + 15u) & ~15u;
    return p;
}

#endif
