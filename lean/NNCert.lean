/-
NNCert: the kernel-side checker library of nn-certify.
Python twin: certify/checker/kernel.py (one Lean module per section of that file).
-/
import NNCert.Lists
import NNCert.Arith
import NNCert.Net
import NNCert.Rank
import NNCert.Compind
import NNCert.ResNet
import NNCert.ReLU
import NNCert.Tanh
