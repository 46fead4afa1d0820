// Package gru is the GRU actor-critic policy of the seed (ActorCritic in
// seed.py): token and level embeddings, one GRU cell, a policy head and a
// value head; for a task whose tools answer, an observation embedding whose
// row for the last observation is added to the last token's
// (Config.Observations: the input a·O+o). The initial state is the seed's
// bag, tanh(mean of emb over the context + stage_emb[level]), which loses
// the tokens' order; or, for a layout that reads (Config.Read),
// tanh(stage_emb[level]) and then one GRU step per context token before
// the first action, aligned at the end of the chunk's longest context so
// that rows of any lengths share a chunk without changing one another's
// arithmetic (Workspace.Start).
//
// It owns the flat parameter layout (Layout, with a named view per tensor
// in state_dict order), the quantities derived from the parameters
// (Derived, such as the token table), the per-chunk workspaces and the
// forward and backward passes through time, and TableGradient, which
// applies the token table's gradient once per update.
//
// It decides what to compute and in which order and calls kernels/ for the
// arithmetic; it holds no SIMD code. It imports nothing of the project but
// kernels and rng: no environment, no loss, no optimiser, no engine.
package gru
