"""The resnet family (untrusted): spec, model, witness and render modules."""
