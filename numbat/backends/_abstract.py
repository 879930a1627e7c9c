"""The old import path of `AbstractBackend`, now declared in `_contract.py` (the backend
contract). Kept only for `numbat/_ops/_convert.py` and `numbat/_ops/_dispatch.py`, which
were being changed by another branch when the contract moved; when they import
`..backends._contract`, this module goes (issue 42)."""

from ._contract import AbstractBackend

__all__ = ["AbstractBackend"]
