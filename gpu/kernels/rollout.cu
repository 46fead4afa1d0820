// rollout.cu: the forward pass of a whole update in one kernel. A block owns a
// tile of E episodes for all T steps: it draws their tasks (philox.cuh),
// builds h0, and for every step computes gh = W_hh·h + b_hh fused with the
// GRU gates (gru.cuh), the policy and value heads, log-softmax, entropy and
// the sampled or greedy action (policy.cuh); then it scores the programs
// (calc.cuh: the seed's environment or the calculator's op table) and writes
// the loss weights (loss.cuh). The hidden states of the
// tile live in shared memory, and so does W_hhᵀ when the tile is large enough
// to pay for loading it (use_smem_w).
//
// Thread layout: blockDim.x = d rounded up to a warp (thread x owns hidden
// unit j = x), blockDim.y = G groups; each thread computes the three gate rows
// of its unit for EPT episodes (E = EPT·G), so the gates are applied in
// registers, never stored as a 3d-wide row.
#include "args.cuh"
#include "calc.cuh"
#include "gru.cuh"
#include "loss.cuh"
#include "philox.cuh"
#include "policy.cuh"
#include "recurrent.cuh"
#include "tape.cuh"

// simdrl_derive refreshes the tensors derived from the parameters after each
// change: the token table V×3d (emb·W_ihᵀ + b_ih, gru/prepare.go; with O > 0
// observations V·O rows, row a·O + o = (emb[a] + obs_emb[o])·W_ihᵀ + b_ih), W_hhᵀ
// (d×3d), the stacked heads [pi.weight; v.weight] transposed (d×(V+1)) and
// natural ((V+1)×d), and their bias (V+1), to which not_action adds
// gru.NotActionLogit for the tokens the policy never writes (non-zero
// entries only, as gru.Derived.Compute).
extern "C" __global__ void simdrl_derive(SIMDRL_DERIVE_PARAMS) {
    const simdrl_layout L = simdrl_layout_obs(V, d, S, O);
    const int G3 = 3 * d, V1 = V + 1;
    const long nTable = (long)simdrl_input_rows(V, O) * G3, nWT = (long)d * G3, nHT = (long)d * V1, nHN = (long)V1 * d, total = nTable + nWT + nHT + nHN + V1;
    for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += (long)gridDim.x * blockDim.x) {
        long k = q;
        if (k < nTable) {
            const int v = (int)(k / G3), g = (int)(k % G3);
            const float *w = P + L.wih + (long)g * d;
            float s = 0.0f;
            if (O > 0) {
                const float *e = P + L.emb + (v / O) * d, *o = P + L.obs + (v % O) * d;
                for (int c = 0; c < d; c++) s += (e[c] + o[c]) * w[c];
            } else {
                const float *e = P + L.emb + v * d;
                for (int c = 0; c < d; c++) s += e[c] * w[c];
            }
            table[k] = P[L.bih + g] + s;
            continue;
        }
        k -= nTable;
        if (k < nWT) {
            const int c = (int)(k / G3), g = (int)(k % G3);
            whhT[k] = P[L.whh + (long)g * d + c];
            continue;
        }
        k -= nWT;
        if (k < nHT) {
            const int c = (int)(k / V1), v = (int)(k % V1);
            headsT[k] = v < V ? P[L.piw + v * d + c] : P[L.vw + c];
            continue;
        }
        k -= nHT;
        if (k < nHN) {
            const int v = (int)(k / d), c = (int)(k % d);
            headsN[k] = v < V ? P[L.piw + v * d + c] : P[L.vw + c];
            continue;
        }
        k -= nHN;
        if (k < V)
            headsB[k] = not_action[k] != 0.0f ? P[L.pib + k] + not_action[k] : P[L.pib + k];
        else
            headsB[k] = P[L.vb];
    }
}

// The parameters: args.cuh's SIMDRL_ROLLOUT_PARAMS (gpu/internal/abi's table).
// Layouts written (step-major, as gru.Workspace): h (T+1)×B×d, act T×B×3d
// (r, z, n), ghn T×B×d (W_hh·h + b_hh, n rows), logp T×B×V, logpa/val/ent and
// the loss weights T×B, tokens (T+1)×B (CTX, then the actions), inputs
// (T+1)×B with O > 0 in training (each step's token-table row, a·O + o: CTX
// with the reset's observation, then each action with the observation after
// it), tasks
// B×SIMDRL_TASK_WORDS (common.cuh's instance records).
// With train = 0 (evaluation) only tokens, tasks, block_stats and outcome are
// written. outcome (not null): B×2, each episode's reward as block_stats sums
// it (float32 in training, as the loss reads it) and 1 if it was correct, else 0.
// mode: 0 samples with the counter-based stream, 1 is greedy, 2 takes the
// actions already in tokens (teacher forcing, for the golden tests), 3 takes
// the actions in tokens and, with O > 0, the inputs in inputs (the golden
// cases' observations, given rather than computed). With
// given_tasks the tasks are read from tasks instead of drawn (the kernel draws
// only the seed task's; the host draws every other task's); with rewards_in
// (not null) the loss uses those rewards instead of the environment's.
// estimator (loss.cuh's SIMDRL_EST_*) says which loss weights are written: a
// group estimator's are left to simdrl_estimate, which reads each training
// episode's return and end step, written to ep_return and ep_end (B each).
// group: consecutive episodes that draw one instance (1: each its own).
// until_done: a block stops after the step at which all its episodes have
// ended (the host sets it only where nothing after an end is read);
// steps_run (one per block) is the steps it ran, T unless it stopped (the
// reading entry points, which never stop, leave it unwritten).
// With O > 0 observations (the calculator's, observe = SIMDRL_OBSERVE_SIGNS,
// or the tape's, observe = its SIMDRL_TAPE_* variant) each episode's machine
// is stepped inside the step loop, in sCalc (the tape's in machines, B ×
// simdrl_tape_state in global memory), and the next input is the action with
// the observation after it; with O = 0 the programs are scored after the
// loop, as before. ctx_end is the task's context end, every rollout's first
// token (CTX but for the tape: task.ContextEnd).
// read_context runs the R reading steps (gru.Workspace.Start, Config.Read)
// from h0 in sH0, leaving the state before the first action in sH0: row e of
// n context tokens (simdrl_rec_ctx: its shown tokens, else its digits) reads
// them at steps R − n … R − 1, one GRU step each on the input Input(token, o)
// (o: the observation of its step-0 input, sTok), and copies its h before
// them. Steps where every row of the tile still waits run no GRU. With train,
// writes the steps' h (R+1 blocks from h0), act, ghn and inputs (the waiting
// rows' CTX, which the backward gives no gradient). R is the longest context
// of the launch (gpu/rollout.go's readSteps), at most SIMDRL_MAX_SHOWN.
template <int EPT>
__device__ __forceinline__ void read_context(int R, int B, int d, int O, int ctx_end, int train, const float *__restrict__ table, const float *W, const float *sBhh,
                                          const int32_t *sTask, const int32_t *sTok, float *sH0, float *sH1, float *h, float *act, float *ghn,
                                          int32_t *inputs, int b0, int nE, int E, int tid, int nthr) {
    const int G3 = 3 * d, dS = simdrl_stride4(d), d4 = d & ~3;
    const int j = threadIdx.x, y = threadIdx.y;
    int most = 0;
    for (int e = 0; e < nE; e++) most = max(most, simdrl_rec_ctx_len_raw(sTask + e * SIMDRL_TASK_WORDS));
    float *hp = sH0, *hn = sH1;
    for (int r = 0; r < R; r++) {
        if (train)
            for (int e = tid; e < nE; e += nthr) {
                const int32_t *tk = sTask + e * SIMDRL_TASK_WORDS;
                const int k = r - (R - simdrl_rec_ctx_len_raw(tk));
                const int tok = k >= 0 ? simdrl_rec_ctx(tk)[k] : ctx_end;
                inputs[(size_t)r * B + b0 + e] = O > 0 ? tok * O + sTok[e] % O : tok;
            }
        if (r < R - most) {
            // Every row waits: h_{r+1} = h_r.
            if (train)
                for (int i = tid; i < nE * d; i += nthr) {
                    const int e = i / d, jj = i % d;
                    h[((size_t)(r + 1) * B + b0 + e) * d + jj] = hp[e * dS + jj];
                }
            continue;
        }
        if (j < d) {
            float ar[EPT], az[EPT], an[EPT];
            const float *hrow = hp + y * EPT * dS;
            simdrl_gate_product<EPT>(hrow, dS, W, G3, d, d4, j, ar, az, an);
#pragma unroll
            for (int i = 0; i < EPT; i++) {
                const int e = y * EPT + i;
                float hnew = 0.0f;
                if (e < nE) {
                    const size_t row = (size_t)r * B + b0 + e;
                    const int32_t *tk = sTask + e * SIMDRL_TASK_WORDS;
                    const int k = r - (R - simdrl_rec_ctx_len_raw(tk));
                    hnew = hrow[i * dS + j];
                    if (k >= 0) {
                        const int tok = simdrl_rec_ctx(tk)[k];
                        const float *gi = table + (O > 0 ? tok * O + sTok[e] % O : tok) * G3;
                        const float ghr = sBhh[j] + ar[i], ghz = sBhh[d + j] + az[i], ghnv = sBhh[2 * d + j] + an[i];
                        float rr, z, n;
                        hnew = simdrl_gru_unit(gi[j], gi[d + j], gi[2 * d + j], ghr, ghz, ghnv, hnew, &rr, &z, &n);
                        if (train) {
                            float *a = act + row * G3;
                            a[j] = rr;
                            a[d + j] = z;
                            a[2 * d + j] = n;
                            ghn[row * d + j] = ghnv;
                        }
                    }
                    if (train) h[(row + B) * d + j] = hnew;
                }
                hn[e * dS + j] = hnew;
            }
        }
        __syncthreads();
        float *s = hp;
        hp = hn;
        hn = s;
    }
    if (hp != sH0) {
        for (int i = tid; i < E * dS; i += nthr) sH0[i] = hp[i];
        __syncthreads();
    }
}

// READ: the reading entry points (R > 0); the bag's (READ = false) compile
// without the reading code, R taken as 0. TAPE: the tape task's entry points
// (scorer SIMDRL_SCORE_TAPE), the only ones with its machine compiled in
// (in the others it pushed a reading one into spills); there is no reading
// tape entry point (its reading code and the machine's took more than 128
// registers), so the GPU refuses a tape task that reads its context.
template <int EPT, bool READ, bool TAPE> __device__ __forceinline__ void rollout_tile(SIMDRL_ROLLOUT_PARAMS) {
    if (!READ) R = 0;
    extern __shared__ float4 smem_v[];
    const int DP = blockDim.x, G = blockDim.y, E = EPT * G;
    const int tid = threadIdx.y * DP + threadIdx.x, nthr = DP * G;
    const int b0 = blockIdx.x * E;
    const int nE = min(E, B - b0);
    const int G3 = 3 * d, V1 = V + 1, dS = simdrl_stride4(d);
    const simdrl_layout L = simdrl_layout_of(V, d, S);
    // The policy steps' blocks follow the R reading steps' (R = 0: the bag).
    float *const hP = h + (size_t)R * B * d, *const actP = act + (size_t)R * B * G3, *const ghnP = ghn + (size_t)R * B * d;
    int32_t *const inP = inputs + (size_t)R * B;

    // Shared memory: the regions of args.cuh (gpu/internal/abi), which
    // gpu/plan.go's rolloutSmem sizes from the same table.
    simdrl_carver cv = {(char *)smem_v, 0};
    SIMDRL_ROLLOUT_SMEM(cv)

    if (use_smem_w)
        for (int i = tid; i < d * G3; i += nthr) sW[i] = whhT[i];
    for (int i = tid; i < d * V1; i += nthr) sHT[i] = headsT[i];
    for (int i = tid; i < V1; i += nthr) sHB[i] = headsB[i];
    for (int i = tid; i < G3; i += nthr) sBhh[i] = P[L.bhh + i];
    const float *W = use_smem_w ? sW : whhT;

    for (int e = tid; e < E; e += nthr) {
        int32_t *tk = sTask + e * SIMDRL_TASK_WORDS;
        if (e < nE && given_tasks) {
            const uint32_t b = (uint32_t)(b0 + e);
            // (Not unrolled: unrolling the 74-word copies raised the bag kernels' registers.)
#pragma unroll 1
            for (int q = 0; q < SIMDRL_TASK_WORDS; q++) tk[q] = tasks[(size_t)b * SIMDRL_TASK_WORDS + q];
            simdrl_rec_clamp(tk, V); // the host's record: its context is read below
            tokens[b] = ctx_end;
        } else if (e < nE) {
            const uint32_t b = (uint32_t)(b0 + e);
            // A group of consecutive episodes plays one instance, drawn by
            // the group's index (the CPU's trainJob.work).
            const uint32_t instance = b / (uint32_t)group;
            const int level = fixed_level >= 0 ? fixed_level : simdrl_draw_level(k0, k1, round, instance, mix, unlocked, cdf0, cdf1);
            simdrl_draw_task(k0, k1, round, instance, purpose, level, tk);
#pragma unroll 1
            for (int q = 0; q < SIMDRL_TASK_WORDS; q++) tasks[(size_t)b * SIMDRL_TASK_WORDS + q] = tk[q];
            tokens[b] = ctx_end;
        } else {
#pragma unroll 1
            for (int q = 0; q < SIMDRL_TASK_WORDS; q++) tk[q] = 0;
        }
        sTok[e] = ctx_end;
        if (O > 0 && !TAPE) { // (the tape's machines start in a loop of their own, below)
            int ob = SIMDRL_NO_OBS;
            if (scorer == SIMDRL_SCORE_CALC) {
                simdrl_calc_slot *sl = (simdrl_calc_slot *)sCalc + e;
                sl->s = simdrl_calc_reset(tk, ops, V, partial_credit, observe);
                sl->ret = 0.0;
                ob = simdrl_calc_obs(&sl->s);
            }
            int in0 = ctx_end * O + ob; // (ob: 0..8, the signs of v and v − m)
            if (e < nE && mode == 3) in0 = inP[b0 + e];
            else if (e < nE && train) inP[b0 + e] = in0;
            sTok[e] = in0;
        } else if (READ && !TAPE && e < nE && train) {
            inP[b0 + e] = ctx_end; // the token gradient reads every step's input
        }
    }
    __syncthreads();
    if (TAPE) {
        // The tape's machines, in global memory (tape.cuh), are reset and
        // stepped in loops of their own, where little else is live: inside
        // the loops above they pushed the reading entry points into spills.
        for (int e = tid; e < nE; e += nthr) {
            simdrl_tape_state *ms = (simdrl_tape_state *)machines + (b0 + e);
            simdrl_tape_reset(ms, sTask + e * SIMDRL_TASK_WORDS, observe, partial_credit);
            int in0 = simdrl_input(ctx_end, O, simdrl_tape_obs(ms));
            if (mode == 3) in0 = inP[b0 + e];
            else if (train) inP[b0 + e] = in0;
            sTok[e] = in0;
        }
        __syncthreads();
    }

    // h0 = tanh(mean of emb over the context tokens, the shown tokens (or
    // digits) then CTX, + stage_emb[stage]); reading, tanh(stage_emb[stage])
    // (simdrl_stage: 0 for a task.Unstaged task). The padding columns of each
    // row (d..dS) stay zero.
    for (int i = tid; i < E * dS; i += nthr) {
        const int e = i / dS, j = i % dS;
        float x = 0.0f;
        if (e < nE && j < d) {
            const int32_t *tk = sTask + e * SIMDRL_TASK_WORDS;
            const int stage = simdrl_stage(tk[SIMDRL_REC_LEVEL], S);
            if (READ) {
                x = tanhf(P[L.level_emb + stage * d + j]);
            } else {
                const int n = simdrl_rec_ctx_len_raw(tk);
                const int32_t *ctx = simdrl_rec_ctx(tk);
                float s = 0.0f;
                for (int q = 0; q < n; q++) s += P[L.emb + ctx[q] * d + j];
                s += P[L.emb + ctx_end * d + j];
                const float inv = 1.0f / (float)(n + 1);
                x = tanhf(s * inv + P[L.level_emb + stage * d + j]);
            }
            if (train) h[(size_t)(b0 + e) * d + j] = x;
        }
        sH0[i] = x;
        sH1[i] = 0.0f;
    }
    __syncthreads();

    const int j = threadIdx.x, y = threadIdx.y;
    const int d4 = d & ~3;
    if (READ && R > 0) read_context<EPT>(R, B, d, O, ctx_end, train, table, W, sBhh, sTask, sTok, sH0, sH1, h, act, ghn, inputs, b0, nE, E, tid, nthr);
    // until_done: the tile stops after the step at which its last episode
    // ended, not in the reading entry points (the vote pushed one into
    // spills); ran counts the steps run. Where a machine steps inside the
    // loop (the tape's and the calculator's with observations) its done flag
    // says so; a program scored after the loop (O = 0: the seed task's, the
    // calculator's without observations) ends where simdrl_score_ends says,
    // which the first word of the episode's statistics row remembers (1:
    // ended): sStat is unused until the scoring, which zeroes it.
    const bool machine = TAPE || (O > 0 && scorer == SIMDRL_SCORE_CALC);
    const bool stops = !READ && until_done && (machine || O == 0);
    if (stops && !machine) {
        for (int e = tid; e < E; e += nthr) sStat[e * SIMDRL_NSTATS] = 0.0;
        __syncthreads();
    }
    int ran = T;
    for (int t = 0; t < T; t++) {
        const float *hp = (t & 1) ? sH1 : sH0;
        float *hn = (t & 1) ? sH0 : sH1;
        if (j < d) {
            // gh = W_hh·h for unit j and EPT episodes (recurrent.cuh).
            float ar[EPT], az[EPT], an[EPT];
            const float *hrow = hp + y * EPT * dS;
            simdrl_gate_product<EPT>(hrow, dS, W, G3, d, d4, j, ar, az, an);
#pragma unroll
            for (int i = 0; i < EPT; i++) {
                const int e = y * EPT + i;
                float hnew = 0.0f;
                if (e < nE) {
                    const size_t row = (size_t)t * B + b0 + e;
                    const float *gi = table + sTok[e] * G3;
                    const float ghr = sBhh[j] + ar[i], ghz = sBhh[d + j] + az[i], ghnv = sBhh[2 * d + j] + an[i];
                    float r, z, n;
                    hnew = simdrl_gru_unit(gi[j], gi[d + j], gi[2 * d + j], ghr, ghz, ghnv, hrow[i * dS + j], &r, &z, &n);
                    if (train) {
                        float *a = actP + row * G3;
                        a[j] = r;
                        a[d + j] = z;
                        a[2 * d + j] = n;
                        ghnP[row * d + j] = ghnv;
                        hP[(row + B) * d + j] = hnew;
                    }
                }
                hn[e * dS + j] = hnew;
            }
        }
        __syncthreads();
        // The heads: logits and value, bias + h'·[pi;v]ᵀ, summed over k in order.
        for (int i = tid; i < nE * V1; i += nthr) {
            const int e = i / V1, v = i % V1;
            const float *hr = hn + e * dS;
            float s = 0.0f;
            int k = 0;
            for (; k < d4; k += 4) {
                const float4 h4 = *(const float4 *)(hr + k);
                s += h4.x * sHT[k * V1 + v];
                s += h4.y * sHT[(k + 1) * V1 + v];
                s += h4.z * sHT[(k + 2) * V1 + v];
                s += h4.w * sHT[(k + 3) * V1 + v];
            }
            for (; k < d; k++) s += hr[k] * sHT[k * V1 + v];
            sHeads[e * V1 + v] = sHB[v] + s;
        }
        __syncthreads();
        // The policy, in policy.cuh's phases: the exponentials and logarithms
        // run over every (episode, column) pair in parallel, the maximum and
        // the running sums one thread per episode.
        for (int e = tid; e < nE; e += nthr) sMax[e] = simdrl_row_max(sHeads + e * V1, V);
        __syncthreads();
        for (int i = tid; i < nE * V; i += nthr) {
            const int e = i / V, v = i % V;
            sP[i] = simdrl_shifted_exp(sHeads[e * V1 + v], sMax[e]);
        }
        __syncthreads();
        for (int e = tid; e < nE; e += nthr) sMax[e] = simdrl_row_lse(sMax[e], sP + e * V, V);
        __syncthreads();
        for (int i = tid; i < nE * V; i += nthr) {
            const int e = i / V, v = i % V;
            const simdrl_col c = simdrl_policy_col(sHeads[e * V1 + v], sMax[e]);
            sLogp[i] = c.logp;
            sP[i] = c.p;
            sEnt[i] = c.term;
            if (train) logp[((size_t)t * B + b0 + e) * V + v] = c.logp;
        }
        __syncthreads();
        for (int e = tid; e < nE; e += nthr) {
            const size_t b = b0 + e, row = (size_t)t * B + b;
            const float *x = sHeads + e * V1;
            // (Summed before the action, not inside `if (train)`: that
            // placement made nvcc 11.8's PTX vary from run to run.)
            const float en = simdrl_row_entropy(sEnt + e * V, V);
            int a;
            if (mode >= 2)
                a = tokens[row + B];
            else if (mode == 1)
                a = simdrl_argmax_row(x, V);
            else
                a = simdrl_sample_probs(sP + e * V, V, simdrl_uniform(k0, k1, round, (uint32_t)b, (uint32_t)t, SIMDRL_PURPOSE_ACTION));
            if (TAPE) {
                sTok[e] = a; // stepped below
            } else if (O > 0) {
                // The machine steps here: the next input carries the
                // observation after this action (mode 3: the input given).
                int ob = SIMDRL_NO_OBS;
                if (scorer == SIMDRL_SCORE_CALC) {
                    // Stepped in place in shared memory: a copy in
                    // registers raised the rollout's register count.
                    simdrl_calc_slot *sl = (simdrl_calc_slot *)sCalc + e;
                    const simdrl_step st = simdrl_calc_step(&sl->s, a);
                    sl->ret = SIMDRL_DADD(sl->ret, st.reward);
                    ob = st.obs;
                }
                int in = a * O + ob;
                if (mode == 3) in = inP[row + B];
                else if (train) inP[row + B] = in;
                sTok[e] = in;
            } else {
                if (READ && train) inP[row + B] = a;
                sTok[e] = a;
            }
            tokens[row + B] = a;
            if (train) {
                logpa[row] = sLogp[e * V + a];
                val[row] = x[V];
                ent[row] = en;
            }
        }
        __syncthreads();
        if (TAPE) {
            // Each machine steps on its action; the next input carries the
            // observation after it (mode 3: the input given).
            for (int e = tid; e < nE; e += nthr) {
                const size_t row = (size_t)t * B + b0 + e;
                const int a = sTok[e];
                simdrl_tape_state *ms = (simdrl_tape_state *)machines + (b0 + e);
                const simdrl_step st = simdrl_tape_step(ms, ops, V, a);
                ms->ret = SIMDRL_DADD(ms->ret, st.reward);
                int in = simdrl_input(a, O, st.obs);
                if (mode == 3) in = inP[row + B];
                else if (train) inP[row + B] = in;
                sTok[e] = in;
            }
            __syncthreads();
        }
        if (stops) {
            // A block-wide vote (every thread leaves together).
            int live = 0;
            for (int e = tid; e < nE; e += nthr) {
                if (TAPE) {
                    live |= !((const simdrl_tape_state *)machines + (b0 + e))->done;
                } else if (machine) {
                    live |= !((const simdrl_calc_slot *)sCalc + e)->s.done;
                } else { // sTok[e]: step t's action (O = 0)
                    double *ended = sStat + e * SIMDRL_NSTATS;
                    if (*ended == 0.0 && simdrl_score_ends(scorer, sTask + e * SIMDRL_TASK_WORDS, ops, V, sTok[e], t + 1)) *ended = 1.0;
                    live |= *ended == 0.0;
                }
            }
            if (!__syncthreads_or(live)) {
                ran = t + 1;
                break;
            }
        }
    }
    if (!READ && tid == 0) steps_run[blockIdx.x] = ran; // (not in the reading entry points: the store pushed one into spills)
    // The steps not run (ran on): their tokens and inputs 0 (as a
    // host-stepped rollout's), and in training h 0, which the weight
    // gradients' GEMMs read (times the zero gradients the backward writes
    // there, ends). Nothing else of them is read: the loss weights after an
    // episode's end are 0 (until_done is set only for an estimator that
    // masks them).
    if (!READ)
        for (int t = ran; t < T; t++) {
            const size_t row = (size_t)(t + 1) * B + b0; // the tile's rows of step t's outputs
            for (int i = tid; i < nE; i += nthr) {
                tokens[row + i] = 0;
                if (train && O > 0) inP[row + i] = 0;
            }
            if (train)
                for (int i = tid; i < nE * d; i += nthr) hP[row * d + i] = 0.0f;
        }

    // Score the programs, then the loss weights; the same thread handled
    // episode e above, so its global writes are visible here. simdrl_score
    // steps the row's episode state (env.cuh, calc.cuh) over its tokens, as
    // the CPU's task.Env steps env.Episode and calc.Episode.
    for (int e = tid; e < E; e += nthr) {
        double *st = sStat + e * SIMDRL_NSTATS;
        for (int q = 0; q < SIMDRL_NSTATS; q++) st[q] = 0.0;
        if (e < nE) {
            const size_t b = b0 + e;
            const int32_t *prog = tokens + B + b;
            const int32_t *rec = sTask + e * SIMDRL_TASK_WORDS;
            simdrl_outcome o;
            if (!TAPE && O > 0 && scorer == SIMDRL_SCORE_CALC) {
                // Stepped inside the loop (the same steps simdrl_calc_run takes).
                const simdrl_calc_slot *sl = (const simdrl_calc_slot *)sCalc + e;
                o.reward = sl->ret;
                o.steps = sl->s.steps;
                o.answered = sl->s.answered;
                o.correct = sl->s.correct;
            } else if (TAPE) {
                const simdrl_tape_state *ms = (const simdrl_tape_state *)machines + b;
                o.reward = ms->ret;
                o.steps = ms->steps;
                o.answered = ms->answered;
                o.correct = simdrl_tape_correct(ms);
            } else {
                o = simdrl_score(scorer, rec, ops, V, partial_credit, prog, B, T);
            }
            st[SIMDRL_STAT_SOLVED] = o.correct ? 1.0 : 0.0;
            if (train) {
                const float R = rewards_in ? rewards_in[b] : (float)o.reward; // rewards are float32 in training, as torch.tensor(...).float()
                st[SIMDRL_STAT_REWARD] = (double)R;
                // The mask keeps the steps up to the one that ended the episode: the
                // scorer's last token (its first answer, or the budget's or the
                // rollout's last), the CPU's first done flag (cpu/rollout.go).
                const int step = estimator == SIMDRL_EST_STEP, last = (step && mask) ? o.steps - 1 : T - 1;
                ep_return[b] = R;
                ep_end[b] = o.steps - 1;
                // A group estimator needs the group's returns: simdrl_estimate
                // writes its weights and terms after this kernel.
                if (!simdrl_group_is(estimator)) {
                    const simdrl_terms tr = simdrl_episode_loss(T, B, logpa + b, val + b, ent + b, R, loss_batch, value_coef, entropy_coef,
                                                                step, last, dlogp + b, dent + b, dval + b);
                    st[SIMDRL_STAT_PG] = tr.pg;
                    st[SIMDRL_STAT_VALUE] = tr.value;
                    st[SIMDRL_STAT_ENTROPY] = tr.entropy;
                }
            } else {
                st[SIMDRL_STAT_REWARD] = o.reward;
            }
            if (outcome) { // each episode's reward (as the statistics sum it) and whether it was correct
                outcome[2 * b] = st[SIMDRL_STAT_REWARD];
                outcome[2 * b + 1] = st[SIMDRL_STAT_SOLVED];
            }
        }
    }
    __syncthreads();
    if (tid < SIMDRL_NSTATS) {
        double s = 0.0;
        for (int e = 0; e < E; e++) s += sStat[e * SIMDRL_NSTATS + tid];
        block_stats[(size_t)blockIdx.x * SIMDRL_NSTATS + tid] = s;
    }
}

// simdrl_estimate writes the loss weights of a group estimator after a
// training rollout (estimator, one of loss.cuh's group estimators): one
// thread per group of B/group, simdrl_group_loss over its episodes, and
// each block's share of the loss terms and its flat groups
// (simdrl_group_flat) in block_stats (the rollout's statistics layout, its
// reward and solved columns 0), summed in thread order as the CPU sums its
// episodes. The flat groups ride in the statistics the host downloads
// anyway (SIMDRL_FIN_FLAT): no transfer of the returns.
#define SIMDRL_ESTIMATE_THREADS 64
#define SIMDRL_ESTIMATE_SUMS 4 // per thread: the loss terms pg, value, entropy (SIMDRL_STAT_PG..ENTROPY), then flat
static_assert(SIMDRL_STAT_FLAT - SIMDRL_STAT_PG == SIMDRL_ESTIMATE_SUMS - 1, "simdrl_estimate sums the statistics from SIMDRL_STAT_PG on");
extern "C" __global__ void simdrl_estimate(SIMDRL_ESTIMATE_PARAMS) {
    __shared__ double sTerms[SIMDRL_ESTIMATE_THREADS * SIMDRL_ESTIMATE_SUMS];
    const int g = blockIdx.x * blockDim.x + threadIdx.x, x = threadIdx.x;
    double *mine = sTerms + SIMDRL_ESTIMATE_SUMS * x;
    for (int q = 0; q < SIMDRL_ESTIMATE_SUMS; q++) mine[q] = 0;
    if (g < B / group) {
        const int b = g * group;
        const simdrl_terms tr = simdrl_group_loss(estimator, group, T, B, logpa + b, val + b, ent + b, ep_return + b, ep_end + b, group, loss_batch,
                                                  value_coef, entropy_coef, mask, dlogp + b, dent + b, dval + b);
        mine[0] = tr.pg;
        mine[1] = tr.value;
        mine[2] = tr.entropy;
        mine[3] = (double)simdrl_group_flat(ep_return + b, group);
    }
    __syncthreads();
    if (x < SIMDRL_NSTATS) {
        double s = 0.0;
        if (x >= SIMDRL_STAT_PG)
            for (int i = 0; i < (int)blockDim.x; i++) s += sTerms[SIMDRL_ESTIMATE_SUMS * i + (x - SIMDRL_STAT_PG)];
        block_stats[(size_t)blockIdx.x * SIMDRL_NSTATS + x] = s;
    }
}

extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_e1(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<1, false, false>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_e2(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<2, false, false>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_e4(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<4, false, false>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_e8(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<8, false, false>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_read_e1(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<1, true, false>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_read_e2(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<2, true, false>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_read_e4(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<4, true, false>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_read_e8(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<8, true, false>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_tape_e1(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<1, false, true>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_tape_e2(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<2, false, true>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_tape_e4(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<4, false, true>(SIMDRL_ROLLOUT_ARGS); }
extern "C" __global__ void __launch_bounds__(SIMDRL_MAX_BLOCK_THREADS, 1) simdrl_rollout_tape_e8(SIMDRL_ROLLOUT_PARAMS) { rollout_tile<8, false, true>(SIMDRL_ROLLOUT_ARGS); }

