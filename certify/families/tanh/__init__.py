"""The tanh family (untrusted): spec, model, witness and render modules."""
