// Package enginekit is what the engines (cpu/, gpu/) share beneath
// trainer's public API: the non-finite checks, Adam's constants, the
// parameter hash, the memory probe and the trainer's share of a run's
// memory (TrainerMemory), the model layout of a task, the
// evaluation rounds and streams, the tensor half of the checkpoint
// mapping (trainer writes the config and the training state around it),
// and the estimators' arithmetic (returns, the REINFORCE baselines, the
// group estimators and PPO's), one copy that both engines call.
// It is internal so that none of this is a promise to users of trainer.
//
// Of the project it imports task, gru, rng and checkpoint only; trainer,
// cpu and gpu import it.
package enginekit
