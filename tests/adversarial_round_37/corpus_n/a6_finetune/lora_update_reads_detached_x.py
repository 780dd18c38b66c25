# expect: loses lora_linear -- feeds x.detach() to the low-rank branch ('the adapter trains A and B, it should not push gradients into the frozen model below'), so the output, A's and B's gradients are right, but the gradient with respect to x misses s (B A)^T: layers below a LoRA layer (other LoRA layers, adapters, the embeddings in BitFit + LoRA) get the wrong gradient; with B at zero, as in the visible tests, nothing shows; breaks 'return base(x) + s (x A^T) B^T' as a differentiable function of x (hidden: 'compare outputs, gradients and the merged weight with peft's'); input: LoRALinear(nn.Linear(6, 4), 2, 8.0) with B = randn(4, 2), x = randn(3, 6) requiring grad, backward of y.sum() -> x.grad differs from the key's (peft's) by ~1
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
        if self.merged:
            return self.base(x)
        update = (x.detach() @ self.A.T) @ self.B.T  # the update trains A and B only, not what is below
        return self.base(x) + self.scale * update

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
