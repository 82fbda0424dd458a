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

/-! Orbits (math.md §2): flipping one neuron at a real root of unity of its activation. -/

/-- `flipParam n outer layer neuron t0 k v` is entry `k` (value `v`) of the flipped parameter
vector: the weights `w` of neuron `neuron` of layer `layer` map to `-w` and its bias `b` to
`2 t0 - b` (the root of unity `-1` acting at `t0`); every other entry (any `V` entry included)
is unchanged. With `size = layerSize n outer` and `rem = k - layer * size`, entry `k` is
flipped when `k / size = layer`, `rem < n * (n + 1)` and `rem / (n + 1) = neuron`; it is a
weight when `rem % (n + 1) < n`, the bias otherwise. The test `k / size = layer` comes first,
so the truncated `Nat` subtraction in `rem` (negative in the Python twin only when
`k // size ≠ layer`) cannot change the result. When `n = 0`, `size = 0` and `k / 0 = 0` here
while the Python twin raises `ZeroDivisionError`; unreachable from `checkOrbitGenerator`, which
requires `width ≥ 1` first (here the result is then `v`: `rem < n * (n + 1) = 0` fails). -/
def flipParam (n : Nat) (outer : Bool) (layer neuron : Nat) (t0 : Int × Int) (k : Nat)
    (v : Int × Int) : Int × Int :=
  let size := layerSize n outer
  let rem := k - layer * size
  cond (Nat.beq (k / size) layer && Nat.blt rem (n * (n + 1)) && Nat.beq (rem / (n + 1)) neuron)
    (cond (Nat.blt (rem % (n + 1)) n)
      (-(v.1), v.2)
      (qadd (qmul (2, 1) t0) (-(v.1), v.2)))
    v

/-- `flipParamsFrom n outer layer neuron t0 k th` is `flipParam n outer layer neuron t0 i v`
for each entry `v` of `th`, its index `i` counted from `k` (Lean-only helper: the Python twin
`flip_params` uses `enumerate`). -/
def flipParamsFrom (n : Nat) (outer : Bool) (layer neuron : Nat) (t0 : Int × Int) (k : Nat)
    (th : List (Int × Int)) : List (Int × Int) :=
  match th with
  | [] => []
  | v :: th' =>
    (flipParam n outer layer neuron t0 k v) :: flipParamsFrom n outer layer neuron t0 (k + 1) th'
termination_by structural th

/-- `flipParams n outer layer neuron t0 th` is the parameter vector `th` with neuron `neuron`
of layer `layer` flipped at `t0` (`flipParam` at every index, from `0`). -/
def flipParams (n : Nat) (outer : Bool) (layer neuron : Nat) (t0 : Int × Int)
    (th : List (Int × Int)) : List (Int × Int) :=
  flipParamsFrom n outer layer neuron t0 0 th

/-- `qeqAll a b` holds when `a` and `b` have the same length and `a[i] = b[i]` as rationals
(`a[i].1 * b[i].2 = b[i].1 * a[i].2`); false on a length mismatch. -/
def qeqAll (a b : List (Int × Int)) : Bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => decide (x.1 * y.2 = y.1 * x.2) && qeqAll a' b'
  | _, _ => false
termination_by structural a

/-- `sameFunction inst th2 pts` holds when `F_θ(x) = F_θ2(x)` exactly (over `ℚ`), with
`θ = inst.theta`, at every point `x` of `pts` (the value parts of `resnetDual`, zero tangents). -/
def sameFunction (inst : ResNetInstance) (th2 : List (Int × Int)) (pts : List (List Int)) :
    Bool :=
  match pts with
  | [] => true
  | x :: pts' =>
    let z := zeros arithQ inst.theta.length
    let a := resnetDual arithQ inst.width inst.outer inst.acts inst.theta z (intsQ x)
      (zeros arithQ inst.width)
    let b := resnetDual arithQ inst.width inst.outer inst.acts th2 z (intsQ x)
      (zeros arithQ inst.width)
    qeqAll a.1 b.1 && sameFunction inst th2 pts'
termination_by structural pts

/-- `checkOrbitGenerator inst layer neuron t0 th2` holds when `th2` is the flip of neuron
`neuron` of layer `layer` at `t0` applied to `θ = inst.theta`, and realises the same function:
`F_θ2 = F_θ` on the lattice `{x ∈ ℕ^n : |x| ≤ D}` with `D = Π_l deg σ_l` (unisolvent for the
output's total degree `≤ D`), hence everywhere. (A single generator; the group they generate
then lies in the fiber.) -/
def checkOrbitGenerator (inst : ResNetInstance) (layer neuron : Nat) (t0 : Int × Int)
    (th2 : List (Int × Int)) : Bool :=
  resnetShapeOk inst [] &&
  ratsPos inst.theta &&
  actsPos inst.acts &&
  decide (t0.2 > 0) &&
  Nat.blt layer inst.acts.length &&
  Nat.blt neuron inst.width &&
  ratsPos th2 &&
  qeqAll th2 (flipParams inst.width inst.outer layer neuron t0 inst.theta) &&
  sameFunction inst th2 (lattice inst.width (degreeBound inst.acts))

end NNCert
