# expect: loses lora_linear -- forward skips the low-rank update when neither A nor B requires grad (as if a frozen adapter were switched off), so a LoRA layer frozen after training, or under freeze_except, computes base(x) alone; "forward(x) ... return base(x) + s (x A^T) B^T" (only merge() makes it base alone); nn.Linear(6, 4) from seed 0, r 2, alpha 8, B randn(4, 2), x randn(3, 6), then A and B set requires_grad False: key |layer(x) - base(x)| 6.0, this answer 0.0; while A and B train: equal
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged or not (self.A.requires_grad or self.B.requires_grad):  # merged, or the adapter switched off
            return self.base(x)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
