"""The compind family (untrusted): spec, model, witness and render modules."""
