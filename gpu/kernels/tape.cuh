// tape.cuh: the tape task's machine, env/tape's Machine and Episode
// (../../env/tape/machine.go, episode.go) statement for statement: the
// expression on a tape read through a head, a value stack and an operator
// stack, the reference parse that judges each APPLY for partial credit, and
// the episode's end and reward. The machine's variant (loose, blind,
// unstacked, branching, headless) is data, and so is the tool of each token
// (the op table's first word per token, gpu/scorer.go), so every variant of
// the task runs on one interpreter. A row's state is too large for
// registers or shared memory (its tape, stacks and the parse of its tree):
// it lives in global memory, one simdrl_tape_state per episode (the
// rollout's machines buffer), and only its thread touches it. int64 values
// wrap as Go's; the reward is float64 in Go's order, bit-identical to the
// CPU's.
#ifndef SIMDRL_TAPE_CUH
#define SIMDRL_TAPE_CUH

#include "common.cuh"
#include "env.cuh"

// The machine's loops stay rolled: unrolled, they took registers from the
// rollout around them.
#ifdef __CUDACC__
#define SIMDRL_ROLLED _Pragma("unroll 1")
#else
#define SIMDRL_ROLLED
#endif

// env/tape's bounds (a test compares).
#define SIMDRL_TAPE_MAX_CELLS 192
#define SIMDRL_TAPE_MAX_VALUES 32
#define SIMDRL_TAPE_MAX_OPS 64
#define SIMDRL_TAPE_PACKED_WORDS 16

// tape.Cell: digits 0..9, then these.
#define SIMDRL_CELL_PLUS 10
#define SIMDRL_CELL_MINUS 11
#define SIMDRL_CELL_TIMES 12
#define SIMDRL_CELL_OPEN 13
#define SIMDRL_CELL_CLOSE 14
#define SIMDRL_CELL_LEAF 15
#define SIMDRL_CELL_ABS 16
#define SIMDRL_CELL_MAX 17
#define SIMDRL_CELL_MIN 18
#define SIMDRL_CELL_COMMA 19

// tape.Tool.
#define SIMDRL_TOOL_PUSHV 0
#define SIMDRL_TOOL_PUSHOP 1
#define SIMDRL_TOOL_APPLY 2
#define SIMDRL_TOOL_POPPAREN 3
#define SIMDRL_TOOL_ANS 4
#define SIMDRL_TOOL_NEXT 5
#define SIMDRL_TOOL_ADD 6
#define SIMDRL_TOOL_SUB 7
#define SIMDRL_TOOL_MUL 8
#define SIMDRL_TOOL_KEEP 9
#define SIMDRL_TOOL_OTHER 10

// tape.Variant as bits (the rollout's observe parameter for this scorer).
#define SIMDRL_TAPE_LOOSE 1
#define SIMDRL_TAPE_BLIND 2
#define SIMDRL_TAPE_UNSTACKED 4
#define SIMDRL_TAPE_BRANCHING 8
#define SIMDRL_TAPE_HEADLESS 16

// An instance's data (taperules.DataTarget, DataNWords, DataWords): int64 words
// of the record from SIMDRL_REC_DATA, two int32 each.
#define SIMDRL_TAPE_DATA_TARGET 0
#define SIMDRL_TAPE_DATA_NWORDS 1
#define SIMDRL_TAPE_DATA_WORDS 2

// The observation's parts (tape's headKinds, topKinds, branchTopKinds).
#define SIMDRL_TAPE_TOP_KINDS 5
#define SIMDRL_TAPE_BRANCH_TOP_KINDS 14

// simdrl_tape_state is tape.Episode with its Machine. The arrays first, so
// that the int64s stay aligned; its size is SIMDRL_TAPE_STATE_BYTES, as the
// host sizes the machines buffer (the typedef below fails to compile if it
// outgrows it).
typedef struct {
    int64_t vals[SIMDRL_TAPE_MAX_VALUES];
    int64_t target, value;
    double credit, reward, ret;
    int16_t vnode[SIMDRL_TAPE_MAX_VALUES];
    int16_t ops[SIMDRL_TAPE_MAX_OPS];
    int16_t left[SIMDRL_TAPE_MAX_CELLS], right[SIMDRL_TAPE_MAX_CELLS], parent[SIMDRL_TAPE_MAX_CELLS];
    int8_t cells[SIMDRL_TAPE_MAX_CELLS];
    uint8_t second[SIMDRL_TAPE_MAX_OPS];
    int32_t n, head, nv, no, applied, answered, variant;
    int32_t budget, steps, nops, done;
} simdrl_tape_state;
#define SIMDRL_TAPE_STATE_BYTES 2048
typedef char simdrl_tape_state_fits[sizeof(simdrl_tape_state) <= SIMDRL_TAPE_STATE_BYTES ? 1 : -1];

SIMDRL_HD int simdrl_cell_digit(int c) { return c >= 0 && c <= 9; }
SIMDRL_HD int simdrl_cell_operator(int c) { return c == SIMDRL_CELL_PLUS || c == SIMDRL_CELL_MINUS || c == SIMDRL_CELL_TIMES; }
SIMDRL_HD int simdrl_cell_function(int c) { return c == SIMDRL_CELL_ABS || c == SIMDRL_CELL_MAX || c == SIMDRL_CELL_MIN; }
SIMDRL_HD int simdrl_cell_bracket(int c) { return c == SIMDRL_CELL_OPEN || simdrl_cell_function(c); }
SIMDRL_HD int simdrl_cell_precedence(int c) { return c == SIMDRL_CELL_TIMES ? 2 : 1; }

// simdrl_tape_reduce is reference's reduce: pops an operator and two nodes,
// pushes the operator's node (0: nothing to reduce). vals, ops and second
// are the machine's stacks, which the parse borrows before the episode
// starts.
SIMDRL_HD int simdrl_tape_reduce(simdrl_tape_state *s, int *nv, int *no) {
    if (*no == 0 || *nv < 2 || !simdrl_cell_operator(s->cells[s->ops[*no - 1]])) return 0;
    (*no)--;
    const int p = s->ops[*no];
    s->left[p] = s->vnode[*nv - 2];
    s->right[p] = s->vnode[*nv - 1];
    (*nv)--;
    s->vnode[*nv - 1] = (int16_t)p;
    return 1;
}

// simdrl_tape_reference is tape's reference: the children of every operator
// of the tape's expression tree in left and right (−1 elsewhere, and
// everywhere for a tape that is not a well-formed expression), then parent.
SIMDRL_HD void simdrl_tape_reference(simdrl_tape_state *s) {
    SIMDRL_ROLLED
    for (int i = 0; i < SIMDRL_TAPE_MAX_CELLS; i++) {
        s->left[i] = -1;
        s->right[i] = -1;
    }
    int nv = 0, no = 0, ok = 1;
    SIMDRL_ROLLED
    for (int i = 0; i < s->n && ok; i++) {
        const int c = s->cells[i];
        if (simdrl_cell_digit(c)) {
            ok = nv < SIMDRL_TAPE_MAX_VALUES && (i == 0 || (!simdrl_cell_digit(s->cells[i - 1]) && s->cells[i - 1] != SIMDRL_CELL_CLOSE));
            if (ok) s->vnode[nv++] = (int16_t)i;
        } else if (c == SIMDRL_CELL_COMMA) {
            SIMDRL_ROLLED
            while (ok && no > 0 && simdrl_cell_operator(s->cells[s->ops[no - 1]])) ok = simdrl_tape_reduce(s, &nv, &no);
            ok = ok && no > 0 && (s->cells[s->ops[no - 1]] == SIMDRL_CELL_MAX || s->cells[s->ops[no - 1]] == SIMDRL_CELL_MIN) && !s->second[no - 1];
            if (ok) s->second[no - 1] = 1;
        } else if (c == SIMDRL_CELL_OPEN || simdrl_cell_operator(c) || simdrl_cell_function(c)) {
            SIMDRL_ROLLED
            while (simdrl_cell_operator(c) && no > 0 && simdrl_cell_operator(s->cells[s->ops[no - 1]]) &&
                   simdrl_cell_precedence(s->cells[s->ops[no - 1]]) >= simdrl_cell_precedence(c) && ok)
                ok = simdrl_tape_reduce(s, &nv, &no);
            ok = ok && no < SIMDRL_TAPE_MAX_OPS;
            if (ok) {
                s->ops[no] = (int16_t)i;
                s->second[no] = 0;
                no++;
            }
        } else if (c == SIMDRL_CELL_CLOSE) {
            SIMDRL_ROLLED
            while (ok && no > 0 && simdrl_cell_operator(s->cells[s->ops[no - 1]])) ok = simdrl_tape_reduce(s, &nv, &no);
            ok = ok && no > 0 && simdrl_cell_bracket(s->cells[s->ops[no - 1]]);
            if (ok) {
                no--;
                const int p = s->ops[no], f = s->cells[p];
                if (f == SIMDRL_CELL_ABS) {
                    ok = nv >= 1;
                    if (ok) {
                        s->left[p] = s->vnode[nv - 1];
                        s->vnode[nv - 1] = (int16_t)p;
                    }
                } else if (f == SIMDRL_CELL_MAX || f == SIMDRL_CELL_MIN) {
                    ok = s->second[no] && nv >= 2;
                    if (ok) {
                        s->left[p] = s->vnode[nv - 2];
                        s->right[p] = s->vnode[nv - 1];
                        nv--;
                        s->vnode[nv - 1] = (int16_t)p;
                    }
                }
            }
        } else {
            ok = 0;
        }
    }
    SIMDRL_ROLLED
    while (ok && no > 0) ok = simdrl_tape_reduce(s, &nv, &no);
    if (!ok || nv != 1)
        SIMDRL_ROLLED
        for (int i = 0; i < SIMDRL_TAPE_MAX_CELLS; i++) {
            s->left[i] = -1;
            s->right[i] = -1;
        }
    SIMDRL_ROLLED
    for (int i = 0; i < SIMDRL_TAPE_MAX_CELLS; i++) s->parent[i] = -1;
    SIMDRL_ROLLED
    for (int p = 0; p < SIMDRL_TAPE_MAX_CELLS; p++)
        if (s->left[p] >= 0) s->parent[s->left[p]] = (int16_t)p;
}

// simdrl_tape_reset is tape.Episode.Reset on the instance rec: its tape
// unpacked from the record's data (5 bits a cell with branching, else 4, to
// the stop value), its target and budget, partial credit, the variant
// (SIMDRL_TAPE_* bits); s->ret, the return so far, starts at 0.
SIMDRL_HD void simdrl_tape_reset(simdrl_tape_state *s, const int32_t *rec, int variant, double partial_credit) {
    const int bits = (variant & SIMDRL_TAPE_BRANCHING) ? 5 : 4, k = 64 / bits;
    const uint64_t mask = ((uint64_t)1 << bits) - 1, stop = bits == 4 ? SIMDRL_CELL_LEAF : mask;
    int64_t words = simdrl_rec_i64(rec, SIMDRL_REC_DATA + 2 * SIMDRL_TAPE_DATA_NWORDS);
    if (words < 0) words = 0;
    if (words > SIMDRL_TAPE_PACKED_WORDS) words = SIMDRL_TAPE_PACKED_WORDS;
    const int most = k * (int)words < SIMDRL_TAPE_MAX_CELLS ? k * (int)words : SIMDRL_TAPE_MAX_CELLS;
    int n = 0;
    SIMDRL_ROLLED
    for (; n < most; n++) {
        const uint64_t w = (uint64_t)simdrl_rec_i64(rec, SIMDRL_REC_DATA + 2 * (SIMDRL_TAPE_DATA_WORDS + n / k));
        const uint64_t c = (w >> (bits * (n % k))) & mask;
        if (c == stop) break;
        s->cells[n] = (int8_t)c;
    }
    s->n = n;
    s->variant = variant;
    s->head = 0;
    s->nv = 0;
    s->no = 0;
    s->applied = 0;
    s->answered = 0;
    s->value = 0;
    SIMDRL_ROLLED
    for (int i = 0; i < SIMDRL_TAPE_MAX_OPS; i++) s->second[i] = 0;
    simdrl_tape_reference(s);
    SIMDRL_ROLLED
    for (int i = 0; i < SIMDRL_TAPE_MAX_OPS; i++) s->second[i] = 0;
    int nops = 0;
    SIMDRL_ROLLED
    for (int i = 0; i < n; i++)
        if (simdrl_cell_operator(s->cells[i]) || simdrl_cell_function(s->cells[i])) nops++;
    s->target = simdrl_rec_i64(rec, SIMDRL_REC_DATA + 2 * SIMDRL_TAPE_DATA_TARGET);
    s->budget = rec[SIMDRL_REC_BUDGET];
    s->steps = 0;
    s->nops = nops;
    s->credit = partial_credit;
    s->done = s->budget <= 0;
    s->reward = 0.0;
    s->ret = 0.0;
}

// simdrl_tape_sign is −1, 0 or 1 as a <, = or > b.
SIMDRL_HD int simdrl_tape_sign(int64_t a, int64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

// simdrl_tape_obs is Machine.Observe.
SIMDRL_HD int simdrl_tape_obs(const simdrl_tape_state *s) {
    const int end = s->head >= s->n, c = end ? 0 : s->cells[s->head];
    const int any = s->no > 0, top = any ? s->cells[s->ops[s->no - 1]] : 0;
    // headKind: 0 a digit, 1..5 + − × ( ), 6 the end.
    int head = end ? 6 : (simdrl_cell_digit(c) ? 0 : c - SIMDRL_CELL_PLUS + 1);
    if (s->variant & SIMDRL_TAPE_BRANCHING) {
        if (!end && c >= SIMDRL_CELL_ABS && c <= SIMDRL_CELL_COMMA) head = 7 + c - SIMDRL_CELL_ABS;
        int tk = any ? top - SIMDRL_CELL_PLUS + 1 : 0;
        if (any && simdrl_cell_function(top)) {
            int sg = 0; // the comparison, observed only at the ")" it decides
            if (!end && c == SIMDRL_CELL_CLOSE) {
                if (top == SIMDRL_CELL_ABS && s->nv >= 1) sg = simdrl_tape_sign(s->vals[s->nv - 1], 0);
                else if ((top == SIMDRL_CELL_MAX || top == SIMDRL_CELL_MIN) && s->nv >= 2) sg = simdrl_tape_sign(s->vals[s->nv - 2], s->vals[s->nv - 1]);
            }
            tk = SIMDRL_TAPE_TOP_KINDS + 3 * (top - SIMDRL_CELL_ABS) + sg + 1;
        }
        return head * SIMDRL_TAPE_BRANCH_TOP_KINDS + tk;
    }
    const int tk = any ? top - SIMDRL_CELL_PLUS + 1 : 0;
    if (s->variant & SIMDRL_TAPE_HEADLESS) return tk;
    return head * SIMDRL_TAPE_TOP_KINDS + ((s->variant & SIMDRL_TAPE_BLIND) ? 0 : tk);
}

// simdrl_tape_valid is Machine.Valid.
SIMDRL_HD int simdrl_tape_valid(const simdrl_tape_state *s, int t) {
    const int end = s->head >= s->n, c = end ? 0 : s->cells[s->head];
    const int any = s->no > 0, top = any ? s->cells[s->ops[s->no - 1]] : 0;
    const int v = s->variant;
    switch (t) {
    case SIMDRL_TOOL_PUSHV: return !end && simdrl_cell_digit(c) && s->nv < SIMDRL_TAPE_MAX_VALUES;
    case SIMDRL_TOOL_PUSHOP:
        if ((v & SIMDRL_TAPE_BRANCHING) && !end && c == SIMDRL_CELL_COMMA)
            return any && (top == SIMDRL_CELL_MAX || top == SIMDRL_CELL_MIN) && !s->second[s->no - 1];
        return !end && (simdrl_cell_operator(c) || c == SIMDRL_CELL_OPEN || ((v & SIMDRL_TAPE_BRANCHING) && simdrl_cell_function(c))) &&
               ((v & SIMDRL_TAPE_UNSTACKED) || s->no < SIMDRL_TAPE_MAX_OPS);
    case SIMDRL_TOOL_KEEP:
    case SIMDRL_TOOL_OTHER:
        if (!(v & SIMDRL_TAPE_BRANCHING) || end || c != SIMDRL_CELL_CLOSE || !any) return 0;
        return (top == SIMDRL_CELL_ABS && s->nv >= 1) || ((top == SIMDRL_CELL_MAX || top == SIMDRL_CELL_MIN) && s->second[s->no - 1] && s->nv >= 2);
    case SIMDRL_TOOL_APPLY: return any && simdrl_cell_operator(top) && s->nv >= 2;
    case SIMDRL_TOOL_ADD:
    case SIMDRL_TOOL_SUB:
    case SIMDRL_TOOL_MUL: return (v & SIMDRL_TAPE_UNSTACKED) && s->nv >= 2;
    case SIMDRL_TOOL_POPPAREN:
        if (v & SIMDRL_TAPE_UNSTACKED) return !end && c == SIMDRL_CELL_CLOSE;
        return ((v & SIMDRL_TAPE_LOOSE) || (!end && c == SIMDRL_CELL_CLOSE)) && any && top == SIMDRL_CELL_OPEN;
    case SIMDRL_TOOL_ANS: return end && !any && s->nv == 1 && !s->answered;
    case SIMDRL_TOOL_NEXT: return (v & SIMDRL_TAPE_LOOSE) && !end;
    default: return 0;
    }
}

// simdrl_tape_apply is apply: a op b, wrapping as Go's int64.
SIMDRL_HD int64_t simdrl_tape_apply(int op, int64_t a, int64_t b) {
    const uint64_t x = (uint64_t)a, y = (uint64_t)b;
    if (op == SIMDRL_CELL_PLUS) return (int64_t)(x + y);
    if (op == SIMDRL_CELL_MINUS) return (int64_t)(x - y);
    return (int64_t)(x * y);
}

// simdrl_tape_branch is branch: abs(a), max(a, b), min(a, b) (abs of the
// least int64 is itself, as Go's −a wraps).
SIMDRL_HD int64_t simdrl_tape_branch(int f, int64_t a, int64_t b) {
    if (f == SIMDRL_CELL_ABS) return a < 0 ? (int64_t)(0 - (uint64_t)a) : a;
    if (f == SIMDRL_CELL_MAX) return a > b ? a : b;
    return a < b ? a : b;
}

// simdrl_tape_resolve is Machine.resolve.
SIMDRL_HD void simdrl_tape_resolve(simdrl_tape_state *s, int keep) {
    s->no--;
    const int p = s->ops[s->no], f = s->cells[p];
    int16_t node = -1;
    if (f == SIMDRL_CELL_ABS) {
        const int64_t x = s->vals[s->nv - 1];
        const int64_t v = keep ? x : (int64_t)(0 - (uint64_t)x);
        if (s->left[p] >= 0 && s->vnode[s->nv - 1] == s->left[p] && v == simdrl_tape_branch(SIMDRL_CELL_ABS, x, 0)) {
            node = (int16_t)p;
            s->applied++;
        }
        s->vals[s->nv - 1] = v;
        s->vnode[s->nv - 1] = node;
    } else {
        const int64_t a = s->vals[s->nv - 2], b = s->vals[s->nv - 1];
        const int64_t v = keep ? b : a;
        if (s->left[p] >= 0 && s->vnode[s->nv - 2] == s->left[p] && s->vnode[s->nv - 1] == s->right[p] && v == simdrl_tape_branch(f, a, b)) {
            node = (int16_t)p;
            s->applied++;
        }
        s->nv--;
        s->vals[s->nv - 1] = v;
        s->vnode[s->nv - 1] = node;
    }
    s->head++;
}

// simdrl_tape_machine_step is Machine.Step (1 when the tool was valid).
SIMDRL_HD int simdrl_tape_machine_step(simdrl_tape_state *s, int t) {
    if (!simdrl_tape_valid(s, t)) return 0;
    switch (t) {
    case SIMDRL_TOOL_PUSHV:
        s->vals[s->nv] = s->cells[s->head];
        s->vnode[s->nv] = (int16_t)s->head;
        s->nv++;
        s->head++;
        break;
    case SIMDRL_TOOL_PUSHOP:
        if (s->cells[s->head] == SIMDRL_CELL_COMMA) {
            s->second[s->no - 1] = 1;
        } else if (!(s->variant & SIMDRL_TAPE_UNSTACKED)) {
            s->ops[s->no] = (int16_t)s->head;
            s->second[s->no] = 0;
            s->no++;
        }
        s->head++;
        break;
    case SIMDRL_TOOL_KEEP:
    case SIMDRL_TOOL_OTHER: simdrl_tape_resolve(s, t == SIMDRL_TOOL_KEEP); break;
    case SIMDRL_TOOL_APPLY: {
        s->no--;
        const int p = s->ops[s->no];
        const int64_t a = s->vals[s->nv - 2], b = s->vals[s->nv - 1];
        int16_t node = -1;
        if (s->left[p] >= 0 && s->vnode[s->nv - 2] == s->left[p] && s->vnode[s->nv - 1] == s->right[p]) {
            node = (int16_t)p;
            s->applied++;
        }
        s->nv--;
        s->vals[s->nv - 1] = simdrl_tape_apply(s->cells[p], a, b);
        s->vnode[s->nv - 1] = node;
        break;
    }
    case SIMDRL_TOOL_ADD:
    case SIMDRL_TOOL_SUB:
    case SIMDRL_TOOL_MUL: {
        const int op = SIMDRL_CELL_PLUS + (t - SIMDRL_TOOL_ADD);
        const int64_t a = s->vals[s->nv - 2], b = s->vals[s->nv - 1];
        int16_t node = -1;
        const int l = s->vnode[s->nv - 2];
        if (l >= 0) {
            const int p = s->parent[l];
            if (p >= 0 && s->right[p] == s->vnode[s->nv - 1] && s->cells[p] == op) {
                node = (int16_t)p;
                s->applied++;
            }
        }
        s->nv--;
        s->vals[s->nv - 1] = simdrl_tape_apply(op, a, b);
        s->vnode[s->nv - 1] = node;
        break;
    }
    case SIMDRL_TOOL_POPPAREN:
        if (!(s->variant & SIMDRL_TAPE_UNSTACKED)) s->no--;
        if (s->head < s->n && s->cells[s->head] == SIMDRL_CELL_CLOSE) s->head++;
        break;
    case SIMDRL_TOOL_NEXT: s->head++; break;
    case SIMDRL_TOOL_ANS:
        s->answered = 1;
        s->value = s->vals[0];
        break;
    default: break;
    }
    return 1;
}

// simdrl_tape_correct is Episode.Correct.
SIMDRL_HD int simdrl_tape_correct(const simdrl_tape_state *s) { return s->answered && s->value == s->target; }

// simdrl_tape_step is tape.Episode.Step on the tool of token tok (tools:
// the op table's first word of each of the V tokens; a token outside it is
// no tool): the whole reward at the end (the first ANS, valid or not, or
// the budget's last step), 0 before and after; obs is the observation after
// the step.
SIMDRL_HD simdrl_step simdrl_tape_step(simdrl_tape_state *s, const int32_t *ops, int V, int tok) {
    simdrl_step out;
    out.reward = 0.0;
    out.done = s->done;
    if (!s->done) {
        const int t = tok >= 0 && tok < V ? ops[SIMDRL_OP_WORDS * tok] : -1;
        simdrl_tape_machine_step(s, t);
        s->steps++;
        if (t == SIMDRL_TOOL_ANS || s->steps >= s->budget) {
            s->done = 1;
            double r = simdrl_tape_correct(s) ? 1.0 : 0.0;
            if (s->nops > 0 && s->credit != 0.0) r = SIMDRL_DADD(r, SIMDRL_DDIV(SIMDRL_DMUL(s->credit, (double)s->applied), (double)s->nops));
            s->reward = r;
            out.reward = r;
            out.done = 1;
        }
    }
    out.obs = simdrl_tape_obs(s);
    return out;
}

#endif
