/-
NNCert: the kernel-side checker library of nn-certify.
Python twin: certify/checker/base.py (Lists, Arith), kernel.py (Net, Rank) and rank_core.py
(RankCore): one Lean module per section of those files.
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
