# expect: full marks -- (relabelled in stop 69, when the course's read-only cells stopped binding module-level names: the answer is right) was: forward calls a module-level helper named `update`, which part 1's own read-only test cell rebinds (`update = (x @ layer.A.T) @ layer.B.T`) after its last call of an unmerged forward: once the notebook has run, every unmerged LoRALinear forward raises TypeError; LoRALinear(nn.Linear(6, 4), 2, 8.0)(randn(3, 6)) after every cell: key (3, 4), this answer TypeError 'Tensor' object is not callable
# %% [lora_linear]
def update(x, A, B, scale):
    """The low-rank update s (x A^T) B^T of a LoRA layer."""
    return scale * (x @ A.T) @ B.T


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
        if self.merged:
            return self.base(x)
        return self.base(x) + update(x, self.A, self.B, self.scale)

    def merge(self):
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
