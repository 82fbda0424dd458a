/-
NNCert: the kernel-side checker library of nn-certify.
Python twin: certify/checker/kernel/, one Python module per Lean module (lists.py, arith.py,
net.py, rank_core.py, rank.py, and the families' compind.py, resnet.py, relu.py, tanh.py).
-/
import NNCert.Lists
import NNCert.Arith
import NNCert.Net
import NNCert.RankCore
import NNCert.Rank
import NNCert.Compind
import NNCert.ResNet
import NNCert.ReLU
import NNCert.Tanh
