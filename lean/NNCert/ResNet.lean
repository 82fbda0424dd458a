/-
NNCert.ResNet: constant-width ResNets `x ↦ x + σ_l(W_l x + b_l)` (or `x + V_l σ_l(W_l x + b_l)`
when `outer`), evaluated in forward mode, and the rank checks on them (math.md §2).
Python twin: certify/checker/kernel_resnet.py (NNCert/ResNet); Coq twin: coq/NNCert/ResNet.v.
Same names (camelCase here), same order.
Parameter layout per layer: `W_l` row by row with each row's bias after it (as an MLP layer with
biases), then `V_l` row by row when `outer`. Same conventions as the rest of the library.
-/
import NNCert.Lists
import NNCert.Arith
import NNCert.Net
import NNCert.Rank

namespace NNCert

/-- A width-`n` ResNet with one activation per layer (depth = `acts.length`), activation
coefficients as rational pairs (constant term first), the `outer` flag (a matrix `V_l` after
each activation), and the parameter point `theta`. -/
structure ResNetInstance where
  width : Nat
  acts : List (List (Int × Int))
  outer : Bool
  theta : List (Int × Int)

/-- `layerSize n outer` is the number of parameters of one layer: `W` and `b` (`n * (n + 1)`),
plus `V` (`n * n`) when `outer`. -/
def layerSize (n : Nat) (outer : Bool) : Nat :=
  n * (n + 1) + cond outer (n * n) 0

/-- `resnetParams n acts outer` is the number of parameters of the ResNet: one layer of
`layerSize n outer` parameters per activation. -/
def resnetParams (n : Nat) (acts : List (List (Int × Int))) (outer : Bool) : Nat :=
  acts.length * layerSize n outer

/-- `vecAdd ar a b` is the entrywise sum `[a[i] + b[i]]` over the shorter of `a` and `b`. -/
def vecAdd {α : Type} (ar : Arith α) (a b : List α) : List α :=
  match a, b with
  | x :: a', y :: b' => (ar.add x y) :: vecAdd ar a' b'
  | _, _ => []
termination_by structural a

/-- `resnetDual ar n outer acts th dth h dh` is `(F(x), dF)`: forward mode through one layer
per activation `cs` of `acts` from `h + dh ε`. Each layer computes the pre-activations
`W h + b` (`n` rows of `n + 1` parameters, `h` followed by the constant `1`), applies `σ`
(coefficients `cs`), multiplies by `V` (`n` rows of `n` parameters) when `outer`, and adds the
result to `h`; the parameters `th` (tangents `dth`) are consumed layer by layer. -/
def resnetDual {α : Type} (ar : Arith α) (n : Nat) (outer : Bool) (acts : List (List α))
    (th dth h dh : List α) : List α × List α :=
  match acts with
  | [] => (h, dh)
  | cs :: acts' =>
    match layerDual ar (n + 1) n th dth (h ++ [ar.one]) (dh ++ [ar.zero]) with
    | (pre, dpre) =>
      match actDual ar cs pre dpre with
      | (v, dv) =>
        let th1 := dropN (n * (n + 1)) th
        let dth1 := dropN (n * (n + 1)) dth
        cond outer
          (match layerDual ar n n th1 dth1 v dv with
            | (u, du) =>
              resnetDual ar n outer acts' (dropN (n * n) th1) (dropN (n * n) dth1)
                (vecAdd ar h u) (vecAdd ar dh du))
          (resnetDual ar n outer acts' th1 dth1 (vecAdd ar h v) (vecAdd ar dh dv))
termination_by structural acts

/-- `resnetShapeOk inst samples` holds when the instance is well formed: positive width, at
least one layer, every activation nonconstant, as many parameters as the architecture has,
and every sample of the width. -/
def resnetShapeOk (inst : ResNetInstance) (samples : List (List Int)) : Bool :=
  Nat.ble 1 inst.width &&
  Nat.ble 1 inst.acts.length &&
  actsNonconst inst.acts &&
  Nat.beq inst.theta.length (resnetParams inst.width inst.acts inst.outer) &&
  rowsLen inst.width samples

/-- `jacEntryResnet p n outer actsM thM samples row c` is `∂ F_θ(x_s)[k] / ∂ θ_c mod p` for
`row = (s, k)`, with the activations `actsM` and the parameters `thM` already reduced mod `p`:
one forward-mode pass with the tangent `e_c` on the parameters and `0` on the input. -/
def jacEntryResnet (p : Int) (n : Nat) (outer : Bool) (actsM : List (List Int)) (thM : List Int)
    (samples : List (List Int)) (row : Nat × Nat) (c : Nat) : Int :=
  let ar := arithMod p
  let x := intsMod p (nthRow samples row.1)
  nth (resnetDual ar n outer actsM thM (unitVec ar thM.length c) x (zeros ar x.length)).2 row.2

/-- `jacMinorResnet p n outer actsM thM samples rows cols` is the minor `J[rows, cols] mod p`
of the Jacobian `J` of `θ ↦ (F_θ(x_s))_s`: one row per `(s, k)` in `rows`, one column per `c`
in `cols`. -/
def jacMinorResnet (p : Int) (n : Nat) (outer : Bool) (actsM : List (List Int)) (thM : List Int)
    (samples : List (List Int)) (rows : List (Nat × Nat)) (cols : List Nat) :
    List (List Int) :=
  match rows with
  | [] => []
  | r :: rows' =>
    (cols.map (fun c => jacEntryResnet p n outer actsM thM samples r c)) ::
      jacMinorResnet p n outer actsM thM samples rows' cols
termination_by structural rows

/-- `checkRankLowerResnet inst w r` holds when the rank over `ℚ` of the Jacobian of
`θ ↦ (F_θ(x_s))_s` at `θ = inst.theta` (samples `x_s = w.samples`) is at least `r`: the instance
is well formed, the denominators are invertible mod `w.p`, and the `r × r` minor
`J[w.rows, w.cols] mod w.p`, recomputed here, has the inverse `w.inv` mod `w.p`. -/
def checkRankLowerResnet (inst : ResNetInstance) (w : LowerWitness) (r : Nat) : Bool :=
  resnetShapeOk inst w.samples &&
  pOk w.p &&
  ratsInvOk w.p inst.theta w.thetaInv &&
  actsInvOk w.p inst.acts w.actsInv &&
  Nat.beq w.rows.length r &&
  Nat.beq w.cols.length r &&
  rowsInRange w.samples.length inst.width w.rows &&
  allLt inst.theta.length w.cols &&
  checkInverse w.p r
    (jacMinorResnet w.p inst.width inst.outer (actsMod w.p inst.acts w.actsInv)
      (ratsMod w.p inst.theta w.thetaInv) w.samples w.rows w.cols)
    w.inv

/-- `tangentVanishesResnet inst pts t` holds when `d/ds F_{θ + s t}(x) = 0` at `s = 0`, exactly
(over `ℚ`), at every point `x` of `pts`. -/
def tangentVanishesResnet (inst : ResNetInstance) (pts : List (List Int)) (t : List Int) : Bool :=
  match pts with
  | [] => true
  | x :: pts' =>
    allZeroQ (resnetDual arithQ inst.width inst.outer inst.acts inst.theta (intsQ t) (intsQ x)
      (zeros arithQ inst.width)).2 &&
    tangentVanishesResnet inst pts' t
termination_by structural pts

/-- `tangentsVanishResnet inst pts ts` holds when `tangentVanishesResnet inst pts t` holds for
every tangent `t` of `ts`. -/
def tangentsVanishResnet (inst : ResNetInstance) (pts : List (List Int)) (ts : List (List Int)) :
    Bool :=
  match ts with
  | [] => true
  | t :: ts' => tangentVanishesResnet inst pts t && tangentsVanishResnet inst pts ts'
termination_by structural ts

/-- `checkRankUpperResnet inst w u` holds when the `s` tangents `w.tangents` are independent
kernel vectors of the differential of `θ ↦ F_θ` at `θ = inst.theta`, so that its rank there is
at most `u = #params - s`: each tangent's directional derivative of `F` vanishes exactly on the
lattice `{x ∈ ℕ^n : |x| ≤ D}` with `D = Π_l deg σ_l` (unisolvent for the output's total degree
`≤ D`), and an `s × s` minor of the tangents is invertible mod `w.p`. -/
def checkRankUpperResnet (inst : ResNetInstance) (w : UpperWitness) (u : Nat) : Bool :=
  let n := inst.theta.length
  let s := w.tangents.length
  resnetShapeOk inst [] &&
  ratsPos inst.theta &&
  actsPos inst.acts &&
  pOk w.p &&
  Nat.beq (u + s) n &&
  rowsLen n w.tangents &&
  tangentsVanishResnet inst (lattice inst.width (degreeBound inst.acts)) w.tangents &&
  Nat.beq w.cols.length s &&
  allLt n w.cols &&
  checkInverse w.p s (colMinor w.tangents w.cols) w.inv

end NNCert
