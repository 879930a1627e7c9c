"""Nx 0.13.1 doctests ported to numbat (see translate.py and test_nx_doctests.py)."""
