/-
NNCert.TanhSym (NNCert/TanhSym): what a checked group element of a tanh certificate means,
the one-hidden-layer part of coq/NNCert/meaning/tanh/TanhSym.v (Python side: certify/families/tanh/dag.py documents
the action; there is no Python twin of a proof).
Core Lean only: the numbers are any commutative ring `α` (`Lean.Grind.CommRing`, the class of
core's `grind` ring solver), the activation an arbitrary function carried by the hypothesis
structure `AffineSymmetric` together with its symmetry `ρ(α z + β) = γ ρ(z) + δ` and an inverse
of `γ`. Written without a compiler (no Lean toolchain where this project is developed) and
therefore NOT imported by `NNCert.lean`: a mistake here cannot break the certificate builds.
Check it with `lake build NNCert.TanhSym`. The Coq version is compiled in every bundle.
-/

namespace NNCert

open Lean.Grind

/-- An activation `rho` with an affine symmetry `rho (alpha * z + beta) = gamma * rho z + delta`
and `gamma * gammaInv = 1` (the hypothesis structure of the theorems below). -/
structure AffineSymmetric (α : Type) [CommRing α] where
  rho : α → α
  alpha : α
  beta : α
  gamma : α
  delta : α
  gammaInv : α
  sym : ∀ z, rho (alpha * z + beta) = gamma * rho z + delta
  inv : gamma * gammaInv = 1

/-- A hidden neuron: incoming weights, bias, outgoing weight. -/
structure Neuron (α : Type) where
  win : List α
  bias : α
  wout : α

section
variable {α : Type} [CommRing α]

/-- `dotR a x` is `Σ a[i] * x[i]` over the shorter length. -/
def dotR (a x : List α) : α :=
  match a, x with
  | [], _ => 0
  | _ :: _, [] => 0
  | u :: a', v :: x' => u * v + dotR a' x'
termination_by structural a

/-- `contrib S x n` is the neuron's contribution `wout * rho (win . x + bias)`. -/
def contrib (S : AffineSymmetric α) (x : List α) (n : Neuron α) : α :=
  n.wout * S.rho (dotR n.win x + n.bias)

/-- `netSum S x ns` is the sum of the contributions (the network function minus its output
bias). -/
def netSum (S : AffineSymmetric α) (x : List α) (ns : List (Neuron α)) : α :=
  match ns with
  | [] => 0
  | n :: ns' => contrib S x n + netSum S x ns'
termination_by structural ns

/-- `flipNeuron S n`: incoming weights and bias by `alpha, beta`, outgoing weight over
`gamma`. -/
def flipNeuron (S : AffineSymmetric α) (n : Neuron α) : Neuron α :=
  { win := n.win.map (fun u => S.alpha * u),
    bias := S.alpha * n.bias + S.beta,
    wout := n.wout * S.gammaInv }

/-- `flipShift S n` is the output-bias change `- wout * delta / gamma` of the flip. -/
def flipShift (S : AffineSymmetric α) (n : Neuron α) : α :=
  -(n.wout * S.delta * S.gammaInv)

/-- The local step (valid at every node of every DAG). -/
theorem flip_contribution (S : AffineSymmetric α) (w z : α) :
    w * S.rho z = (w * S.gammaInv) * S.rho (S.alpha * z + S.beta) - w * S.delta * S.gammaInv := by
  rw [S.sym z]
  have h := S.inv
  grind

theorem dotR_scale (c : α) (a x : List α) :
    dotR (a.map (fun u => c * u)) x = c * dotR a x := by
  induction a generalizing x with
  | nil => simp only [List.map, dotR]; grind
  | cons u a ih =>
    cases x with
    | nil => simp only [List.map, dotR]; grind
    | cons v x => simp only [List.map, dotR, ih]; grind

theorem contrib_flip (S : AffineSymmetric α) (x : List α) (n : Neuron α) :
    contrib S x (flipNeuron S n) = contrib S x n - flipShift S n := by
  simp only [contrib, flipNeuron, flipShift, dotR_scale]
  have e : S.alpha * dotR n.win x + (S.alpha * n.bias + S.beta) =
      S.alpha * (dotR n.win x + n.bias) + S.beta := by grind
  rw [e, flip_contribution S n.wout (dotR n.win x + n.bias)]
  grind

theorem netSum_append (S : AffineSymmetric α) (x : List α) (xs ys : List (Neuron α)) :
    netSum S x (xs ++ ys) = netSum S x xs + netSum S x ys := by
  induction xs with
  | nil => simp only [List.nil_append, netSum]; grind
  | cons n xs ih => simp only [List.cons_append, netSum, ih]; grind

/-- Flipping one hidden neuron, with the output bias shifted, keeps the network function. -/
theorem flip_one (S : AffineSymmetric α) (x : List α) (pre post : List (Neuron α))
    (n : Neuron α) (c0 : α) :
    (c0 + flipShift S n) + netSum S x (pre ++ flipNeuron S n :: post) =
      c0 + netSum S x (pre ++ n :: post) := by
  simp only [netSum_append, netSum, contrib_flip]
  grind

/-- Permuting the hidden neurons keeps the network function. -/
theorem permute (S : AffineSymmetric α) (x : List α) (ns ns' : List (Neuron α))
    (h : ns.Perm ns') : netSum S x ns = netSum S x ns' := by
  induction h with
  | nil => rfl
  | cons n _ ih => simp only [netSum, ih]
  | swap a b l => simp only [netSum]; grind
  | trans _ _ ih1 ih2 => exact ih1.trans ih2

end

end NNCert
