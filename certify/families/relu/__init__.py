"""The relu family (untrusted): spec, model, witness and render modules."""
