"""The check layer: decode a certificate (checker/ir.py), run its kernel twins, fast paths
and facts, rebuild its claim and result, and report every problem. One module per kind (or
per family where its kinds share the decoding); checker/registry.py names each kind's
`check` function here. The only layer that may import every other one."""
