// hoststep.cu: the policy of a task whose game the host steps (gpu/hoststep.go:
// any Go task that is not one of the rollout's machines). The host launches
// simdrl_host_start once, then simdrl_host_step once per step: each block is
// one episode, each thread one hidden unit, and the step is the rollout's
// (rollout.cu) statement for statement — the gate product of recurrent.cuh,
// the GRU unit of gru.cuh, the heads summed in the same order, the policy of
// policy.cuh and the action drawn from the same counters — so the numbers
// are the rollout's and do not depend on the batch's tiling. Between two
// launches the host copies the actions back, steps the games and uploads
// each episode's next input row (a·O + o).
#include "args.cuh"
#include "gru.cuh"
#include "philox.cuh"
#include "policy.cuh"
#include "recurrent.cuh"

// simdrl_host_start writes h0 of each of the B episodes whose records are in
// tasks, as the rollout's bag does: tanh(mean of emb over the context then
// ctx_end, + stage_emb[stage]); and tokens[b] = ctx_end (the first input).
// One block an episode, threads over the hidden units.
extern "C" __global__ void simdrl_host_start(SIMDRL_HOST_START_PARAMS) {
    const int b = blockIdx.x;
    if (b >= B) return;
    const simdrl_layout L = simdrl_layout_of(V, d, S);
    const int32_t *tk = tasks + (size_t)b * SIMDRL_TASK_WORDS;
    const int n = simdrl_rec_ctx_len(tk);
    const int stage = simdrl_stage(tk[SIMDRL_REC_LEVEL], S);
    if (threadIdx.x == 0) tokens[b] = ctx_end;
    for (int j = threadIdx.x; j < d; j += blockDim.x) {
        float s = 0.0f;
        for (int q = 0; q < n; q++) s += P[L.emb + simdrl_rec_ctx_tok(tk, q, V) * d + j];
        s += P[L.emb + ctx_end * d + j];
        const float inv = 1.0f / (float)(n + 1);
        h[(size_t)b * d + j] = tanhf(s * inv + P[L.level_emb + stage * d + j]);
    }
}

// SIMDRL_MASKED_LOGIT replaces the logit of a token the task's legal-action
// mask refuses (gru.MaskedLogit): its probability is exactly 0, so it is
// never played, adds nothing to the entropy and gets no gradient.
#define SIMDRL_MASKED_LOGIT (-1e30f)

// simdrl_host_step runs step t of B episodes: episode b's state h_in[b]
// (d floats) and input row in_rows[b] of the token table (NV rows) give
// h_out[b], its logits and value, and its action in actions[b]: sampled
// (mode 0, the rollout's counters (round, b, t)) or greedy (mode 1). legal
// (B×V, not null: the task's legal-action mask) says which tokens episode b
// may play (0: its logit is SIMDRL_MASKED_LOGIT, before the policy). With
// train it also writes the step's act (3d), ghn (d), logp (V), logpa, val
// and ent, each at episode b of the step's block (the caller's pointers are
// at step t's rows).
extern "C" __global__ void simdrl_host_step(SIMDRL_HOST_STEP_PARAMS) {
    extern __shared__ float4 smem_v[];
    const int b = blockIdx.x;
    if (b >= B) return;
    const int E = 1, G3 = 3 * d, V1 = V + 1, dS = simdrl_stride4(d), d4 = d & ~3;
    const int j = threadIdx.x, nthr = blockDim.x;
    const simdrl_layout L = simdrl_layout_of(V, d, S);
    simdrl_carver cv = {(char *)smem_v, 0};
    SIMDRL_HOST_STEP_SMEM(cv)
    (void)E;

    for (int k = j; k < dS; k += nthr) sH[k] = k < d ? h_in[(size_t)b * d + k] : 0.0f;
    __syncthreads();
    if (j < d) {
        float ar[1], az[1], an[1];
        simdrl_gate_product<1>(sH, dS, whhT, G3, d, d4, j, ar, az, an);
        const float *gi = table + (size_t)simdrl_clamp(in_rows[b], 0, NV - 1) * G3;
        const float ghr = P[L.bhh + j] + ar[0], ghz = P[L.bhh + d + j] + az[0], ghnv = P[L.bhh + 2 * d + j] + an[0];
        float r, z, n;
        const float hnew = simdrl_gru_unit(gi[j], gi[d + j], gi[2 * d + j], ghr, ghz, ghnv, sH[j], &r, &z, &n);
        if (train) {
            float *a = act + (size_t)b * G3;
            a[j] = r;
            a[d + j] = z;
            a[2 * d + j] = n;
            ghn[(size_t)b * d + j] = ghnv;
        }
        h_out[(size_t)b * d + j] = hnew;
        sHn[j] = hnew;
    } else if (j < dS) {
        sHn[j] = 0.0f;
    }
    __syncthreads();
    // The heads, bias + h'·[pi;v]ᵀ summed over k as the rollout does.
    for (int v = j; v < V1; v += nthr) {
        float s = 0.0f;
        int k = 0;
        for (; k < d4; k += 4) {
            const float4 h4 = *(const float4 *)(sHn + k);
            s += h4.x * headsT[k * V1 + v];
            s += h4.y * headsT[(k + 1) * V1 + v];
            s += h4.z * headsT[(k + 2) * V1 + v];
            s += h4.w * headsT[(k + 3) * V1 + v];
        }
        for (; k < d; k++) s += sHn[k] * headsT[k * V1 + v];
        sHeads[v] = legal && v < V && !legal[(size_t)b * V + v] ? SIMDRL_MASKED_LOGIT : headsB[v] + s;
    }
    __syncthreads();
    if (j == 0) sMax[0] = simdrl_row_max(sHeads, V);
    __syncthreads();
    for (int v = j; v < V; v += nthr) sP[v] = simdrl_shifted_exp(sHeads[v], sMax[0]);
    __syncthreads();
    if (j == 0) sMax[0] = simdrl_row_lse(sMax[0], sP, V);
    __syncthreads();
    for (int v = j; v < V; v += nthr) {
        const simdrl_col c = simdrl_policy_col(sHeads[v], sMax[0]);
        sLogp[v] = c.logp;
        sP[v] = c.p;
        sEnt[v] = c.term;
        if (train) logp[(size_t)b * V + v] = c.logp;
    }
    __syncthreads();
    if (j == 0) {
        const float en = simdrl_row_entropy(sEnt, V);
        const int a = mode == 1 ? simdrl_argmax_row(sHeads, V)
                                : simdrl_sample_probs(sP, V, simdrl_uniform(k0, k1, round, (uint32_t)b, (uint32_t)t, SIMDRL_PURPOSE_ACTION));
        actions[b] = a;
        if (train) {
            logpa[b] = sLogp[a];
            val[b] = sHeads[V];
            ent[b] = en;
        }
    }
}
