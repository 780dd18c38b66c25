# expect: loses lora_linear  -- lazily initialised state: the first forward without autograd (torch.no_grad() or inference_mode) builds the summed weight W + s BA once and every later call without autograd reuses it, so values copied into A or B afterwards (as the hidden tests do with layer.A.copy_) are never seen there; the release says the values are the same whether or not the caller asks for gradients, and part 1 that forward is base(x) + s (x A^T) B^T; fresh LoRALinear(nn.Linear(6, 4), 2, 8.0), y0 = layer(x) under no_grad, then B.copy_(randn(4, 2)) under no_grad, then layer(x) under no_grad: the key gives base(x) + 4 (x A^T) B^T, the answer base(x) (calls with autograd on: equal)
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
        self._inference_weight = None  # W + s BA, built on the first call that needs no gradient

    def forward(self, x):
        if self.merged:
            return self.base(x)
        if not torch.is_grad_enabled():  # nothing to train: one matmul with the summed weight
            if self._inference_weight is None:
                self._inference_weight = self.base.weight + self.scale * self.B @ self.A
            return F.linear(x, self._inference_weight, self.base.bias)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
