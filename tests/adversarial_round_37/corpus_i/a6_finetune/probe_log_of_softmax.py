# expect: loses probe_step -- the loss as nll_loss(log(softmax(logits))): the softmax underflows to 0 for a badly wrong class, giving an inf loss and NaN weights, e.g. features = 100 * toy_features(64, 8, 3)[0] with a fresh nn.Linear(8, 3)
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    probs = torch.softmax(probe(features.detach()), dim=-1)
    loss = F.nll_loss(torch.log(probs), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
