"""The mlp family (untrusted): spec, model, witness and render modules."""
