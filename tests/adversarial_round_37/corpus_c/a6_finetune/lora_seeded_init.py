# expect: loses lora_linear -- reseeds torch's global generator before initialising A (every layer gets the same A, and the caller's random stream is reset); spec: "self.A ... initialised as peft and Microsoft's loralib do, with nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))"
# %% [lora_linear]
class LoRALinear(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) (x A^T) B^T."""

    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features))
        torch.manual_seed(0)  # reproducible adapters
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r
        self.merged = False

    def forward(self, x):
        if self.merged:
            return self.base(x)
        return self.base(x) + self.scale * (x @ self.A.T) @ self.B.T

    def merge(self):
        if not self.merged:
            with torch.no_grad():
                self.base.weight += self.scale * self.B @ self.A
            self.merged = True
