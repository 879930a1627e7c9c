"""The assertions of Nx 0.13.1's ExUnit suite that have no numbat form, and the
deliberate differences, each with its reason, per Nx test file.

An entry is `(Nx test name, reason)`. `UNTRANSLATABLE` holds assertions about Elixir
machinery (processes, protocols, macros, backends numbat does not have); `DELIBERATE`
holds numbat answers that differ from Nx on purpose. Nothing here is a bug: a bug is fixed.
"""

UNTRANSLATABLE: dict[str, list[tuple[str, str]]] = {}

DELIBERATE: dict[str, list[tuple[str, str]]] = {}
