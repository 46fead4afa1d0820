package enginekit

// The estimators' seam, shared by both engines (cpu/estimator.go,
// gpu/hostloss.go) so that one copy of the arithmetic weighs a rollout:
// after a rollout the engine hands its episodes to an Estimator, a pure
// function that writes every step's loss weights (the loss's derivatives
// by log-probability, value and entropy, which the backward pass reads)
// and returns the episodes' share of the loss terms.

// StepValues is what an estimator reads of the policy's steps: episode b's
// log-probability of its action at step t, its value and its entropy. The
// CPU's gru.Workspace is one (read in place, no copy); StepMajor is the
// same values given as slices (the GPU's, copied back from the device).
type StepValues interface {
	Logp(b, t int) float32
	Value(b, t int) float32
	Entropy(b, t int) float32
}

// StepMajor is StepValues over step-major slices: step t of episode b at
// t*N + b.
type StepMajor struct {
	N                        int
	Logps, Values, Entropies []float32
}

func (s *StepMajor) Logp(b, t int) float32    { return s.Logps[t*s.N+b] }
func (s *StepMajor) Value(b, t int) float32   { return s.Values[t*s.N+b] }
func (s *StepMajor) Entropy(b, t int) float32 { return s.Entropies[t*s.N+b] }

// Episodes is an estimator's input: N episodes of T steps, step t of
// episode b at index t*N + b (ToGo and the LossWeights).
type Episodes struct {
	Steps   StepValues
	N, T    int
	Returns []float32 // per episode, as float32 like the reference's torch.tensor(rewards).float()
	ToGo    []float32 // per step: the return-to-go (Returns)
	End     []int32   // per episode: the step that ended it, or T−1
	Group   int       // consecutive episodes that played one instance (N is a multiple of it)
}

// LossScale is what an estimator weighs the terms by: Batch, the whole
// update's episode count, is the denominator of every mean (an engine may
// weigh a batch in chunks); Mask leaves the steps after an episode's end
// out (trainer.Config.MaskAfterAnswer).
type LossScale struct {
	Batch                  int
	ValueCoef, EntropyCoef float64
	Mask                   bool
}

// LossWeights is where an estimator writes, per step (t*N + b).
type LossWeights struct{ DLogp, DValue, DEnt []float32 }

// LossTerms are trainer.LossTerms' estimator terms (enginekit cannot
// import trainer, which imports it).
type LossTerms struct{ PG, Value, Entropy, Total float64 }

// Estimator writes in's loss weights into out and returns their loss
// terms. It is passed everything by value, so that calling it through a
// variable allocates nothing.
type Estimator func(in Episodes, s LossScale, out LossWeights) LossTerms
