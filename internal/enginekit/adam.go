package enginekit

// Adam's constants, as torch.optim.Adam's defaults; both engines use them.
const (
	AdamBeta1 = 0.9
	AdamBeta2 = 0.999
	AdamEps   = 1e-8
)
