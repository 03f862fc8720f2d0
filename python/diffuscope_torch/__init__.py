"""PyTorch models for Diffuscope: the TorchScript contract, export and Γ (ms_eps) estimation."""
from .contract import CONTRACT_FILE, contract_json, load, save  # noqa: F401
