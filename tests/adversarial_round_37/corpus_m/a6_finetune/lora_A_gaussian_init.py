# expect: loses lora_linear -- initialises A with a small Gaussian (normal_, std 0.02, 'random Gaussian initialisation for A' as in the LoRA paper) instead of kaiming_uniform_(a=sqrt(5)); B is still zero, so the fresh layer equals base and the visible bound check 0 < max|A| <= 1/sqrt(in) passes; breaks 'initialised as peft and loralib do, with nn.init.kaiming_uniform_(self.A, a=math.sqrt(5)) (uniform between +-1/sqrt(in_features))'; input: LoRALinear(nn.Linear(64, 64), r=8, alpha=16) -> key's A uniform on +-0.125 (about half of |A| above 0.0625, std 0.072), this std 0.02 (almost none above 0.0625)
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)  # the pretrained weight and bias stay as they are
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.normal_(self.A, std=0.02)  # random Gaussian, as in the LoRA paper
        self.B = nn.Parameter(torch.zeros(base.out_features, r))  # zero: the layer starts as base
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:  # the update is in base.weight already
            return self.base(x)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
