"""A stand-in for diffusers' UNet2DModel: its forward signature, its timestep handling and its
output object, without diffusers. Also a plain model; factories for the export command."""
from dataclasses import dataclass
import math

import torch
from torch import nn


@dataclass
class UNet2DOutput:
    sample: torch.Tensor


class FakeUNet2DModel(nn.Module):
    def __init__(self, channels=1, hidden=8, num_class_embeds=None):
        super().__init__()
        self.conv_in = nn.Conv2d(channels, hidden, 3, padding=1)
        self.time_mlp = nn.Linear(16, hidden)
        self.class_embedding = (nn.Embedding(num_class_embeds, hidden)
                                if num_class_embeds else None)
        self.conv_out = nn.Conv2d(hidden, channels, 3, padding=1)

    def forward(self, sample, timestep, class_labels=None, return_dict=True):
        timesteps = timestep
        if not torch.is_tensor(timesteps):
            timesteps = torch.tensor([timesteps], dtype=torch.long, device=sample.device)
        elif len(timesteps.shape) == 0:
            timesteps = timesteps[None].to(sample.device)
        # As diffusers does: broadcast to the batch, then a sinusoidal embedding of a float.
        timesteps = timesteps * torch.ones(sample.shape[0], dtype=timesteps.dtype,
                                           device=timesteps.device)
        half = 8
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
        angles = timesteps[:, None].float() * freqs[None, :]
        emb = self.time_mlp(torch.cat([torch.sin(angles), torch.cos(angles)], dim=1))
        if self.class_embedding is not None:
            if class_labels is None:
                raise ValueError("class_labels should be provided when doing class conditioning")
            emb = emb + self.class_embedding(class_labels)
        h = torch.nn.functional.silu(self.conv_in(sample) + emb[:, :, None, None])
        out = self.conv_out(h)
        if not return_dict:
            return (out,)
        return UNet2DOutput(sample=out)


class PlainEps(nn.Module):
    """forward(x, t) -> tensor, scriptable."""

    def __init__(self, dim=2, num_steps=50):
        super().__init__()
        self.embed = nn.Embedding(num_steps, dim)
        self.linear = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return self.linear(x) * torch.tanh(self.embed(t))


def make_unet():
    torch.manual_seed(0)
    return FakeUNet2DModel()


def make_plain():
    torch.manual_seed(0)
    return PlainEps()


class SampleOutput(nn.Module):
    """forward(x, t) returning an object with .sample but no return_dict parameter."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 3)

    def forward(self, x, t):
        return UNet2DOutput(sample=self.linear(x) + t[:, None].float())


class CategoricalLogits(nn.Module):
    """forward(x: int64[B, D], t: float32[B]) -> logits [B, D, K]."""

    def __init__(self, num_classes=4):
        super().__init__()
        self.embed = nn.Embedding(num_classes, num_classes)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return self.embed(x) * (1.0 - t)[:, None, None]
