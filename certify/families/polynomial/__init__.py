"""What the MLP and ResNet families share: the polynomial-network models (backprop
Jacobians), the rank generator and its renderer."""
