"""The claims layer: claim texts and derived result fields, one module per family.

Shared by the generators (which write them) and the checker (which rebuilds them from the
checked numbers and compares exactly), so no sentence in a certificate, manifest, report or
rendered file says more than what was checked or cited. Imports the kernel, fast and facts
layers and checker/ir.py only."""
