# expect: loses lora_linear -- runs the frozen base layer under torch.no_grad() ('base is frozen: no graph needed'), which also cuts the gradient to the INPUT through base: x.grad gets only the LoRA path's s B A part, not W; breaks 'compare outputs, gradients ... with peft's' (a layer inside a model must pass base's gradient back to the layers below); input: LoRALinear(nn.Linear(6,4), r=2, alpha=8) with B set to randn, x = randn(3,6, requires_grad) and out.sum().backward() -> x.grad differs from the key's by W's column sums
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)  # the pretrained weight and bias stay as they are
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))  # random, as nn.Linear's own weight
        self.B = nn.Parameter(torch.zeros(base.out_features, r))  # zero: the layer starts as base
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:  # the update is in base.weight already
            return self.base(x)
        with torch.no_grad():  # base is frozen: it needs no graph
            frozen = self.base(x)
        return frozen + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        """Add the update into base.weight, once; afterwards forward is base alone."""
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
