package cli

import (
	"fmt"

	flag "github.com/spf13/pflag"

	"github.com/simdrl/simdrl/trainer"
)

// ppoFlags are -estimator ppo's settings (trainer.Config.PPO), named as
// CleanRL's ppo.py names them where no flag of ours has the word already
// (-clip is the gradient norm's clip, so the ratio's is -clip-coef).
type ppoFlags struct {
	epochs, minibatches       *int
	clipCoef, lambda, gamma   *float64
	clipVLoss, normAdvantages *bool
}

// define adds the flags to fs, with CleanRL's defaults.
func (p *ppoFlags) define(fs *flag.FlagSet) {
	d := (&trainer.Config{}).PPO()
	p.epochs = fs.Int("ppo-epochs", d.Epochs, "-estimator ppo: passes over each update's stored rollout [1, 1000]")
	p.minibatches = fs.Int("ppo-minibatches", d.Minibatches, fmt.Sprintf("-estimator ppo: minibatches of whole episodes per pass, each one Adam step [1, %d]; it divides -batch", trainer.MaxEpisodes))
	p.clipCoef = fs.Float64("clip-coef", d.ClipCoef, "-estimator ppo: the probability ratio's clip ε (0, 10] (and the value's, with -clip-vloss)")
	p.lambda = fs.Float64("gae-lambda", d.Lambda, "-estimator ppo: GAE's λ (0, 1]")
	p.gamma = fs.Float64("gamma", d.Gamma, "-estimator ppo: the discount γ (0, 1]")
	p.clipVLoss = fs.Bool("clip-vloss", d.ClipVLoss, "-estimator ppo: clip the value loss around the rollout's values")
	p.normAdvantages = fs.Bool("norm-adv", d.NormAdv, "-estimator ppo: normalise the advantages over each minibatch")
}

// apply sets the flags given explicitly onto cfg (set: the command line's).
func (p *ppoFlags) apply(cfg *trainer.Config, set func(name string, apply func())) {
	set("ppo-epochs", func() { cfg.PPOEpochs = *p.epochs })
	set("ppo-minibatches", func() { cfg.PPOMinibatches = *p.minibatches })
	set("clip-coef", func() { cfg.ClipCoef = *p.clipCoef })
	set("gae-lambda", func() { cfg.GAELambda = *p.lambda })
	set("gamma", func() { cfg.Gamma = *p.gamma })
	set("clip-vloss", func() { cfg.NoClipVLoss = !*p.clipVLoss })
	set("norm-adv", func() { cfg.NoNormAdv = !*p.normAdvantages })
}
