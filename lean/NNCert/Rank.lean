/-
NNCert.Rank: rank certificates for polynomial MLPs.
Python twin: certify/checker/kernel.py, section "rank (NNCert/Rank)"; Coq twin:
coq/NNCert/Rank.v. Same names (camelCase here), same order.
Lower bound: the kernel recomputes the minor `J[rows, cols] mod p` of the Jacobian of
`θ ↦ (f_θ(x_s))_s` by forward mode and checks `J[rows, cols] * inv ≡ I (mod p)`.
Upper bound at `θ`: integer vectors whose directional derivative of `f` vanishes exactly on the
unisolvent lattice `{x ∈ ℕ^d0 : |x| ≤ D}`, independent by a minor that is invertible mod `p`.
-/
import NNCert.Lists
import NNCert.Arith
import NNCert.Net

namespace NNCert

/-- `jacEntryMod p widths actsM bias thM samples row c` is `∂ f_θ(x_s)[k] / ∂ θ_c mod p` for
`row = (s, k)`, with the activations `actsM` and the parameters `thM` already reduced mod `p`:
one forward-mode pass with the tangent `e_c` on the parameters and `0` on the input. -/
def jacEntryMod (p : Int) (widths : List Nat) (actsM : List (List Int)) (bias : Bool)
    (thM : List Int) (samples : List (List Int)) (row : Nat × Nat) (c : Nat) : Int :=
  let ar := arithMod p
  let x := intsMod p (nthRow samples row.1)
  nth (netEval ar widths actsM bias thM (unitVec ar thM.length c) x (zeros ar x.length)).2 row.2

/-- `jacMinor p widths actsM bias thM samples rows cols` is the minor `J[rows, cols] mod p` of
the Jacobian `J` of `θ ↦ (f_θ(x_s))_s`: one row per `(s, k)` in `rows`, one column per `c` in
`cols`. -/
def jacMinor (p : Int) (widths : List Nat) (actsM : List (List Int)) (bias : Bool)
    (thM : List Int) (samples : List (List Int)) (rows : List (Nat × Nat)) (cols : List Nat) :
    List (List Int) :=
  match rows with
  | [] => []
  | r :: rows' =>
    (cols.map (fun c => jacEntryMod p widths actsM bias thM samples r c)) ::
      jacMinor p widths actsM bias thM samples rows' cols
termination_by structural rows

/-- `addScaledMod p z r acc` is `z * r + acc mod p` entrywise, over the shorter of `r` and
`acc`: `[(z * r[i] + acc[i]) % p]`. -/
def addScaledMod (p z : Int) (r acc : List Int) : List Int :=
  match r, acc with
  | x :: r', y :: acc' => ((z * x + y) % p) :: addScaledMod p z r' acc'
  | _, _ => []
termination_by structural r

/-- `comboMod p m zs rows` is `Σ_k zs[k] * rows[k] mod p` (over the shorter of `zs` and `rows`),
a row of length `m` when every row has length `m`; summed from the last term, starting from
the zero row `[0] * m`. -/
def comboMod (p : Int) (m : Nat) (zs : List Int) (rows : List (List Int)) : List Int :=
  match zs, rows with
  | z :: zs', r :: rows' => addScaledMod p z r (comboMod p m zs' rows')
  | _, _ => zeros (arithMod p) m
termination_by structural zs

/-- `identityRows p r M V i` holds when, for every `j`, row `j` of `M` times `V` is the unit
vector `e_{i+j}` of length `r` mod `p`; with `i = 0` and `M` of `r` rows: `M * V ≡ I (mod p)`. -/
def identityRows (p : Int) (r : Nat) (M V : List (List Int)) (i : Nat) : Bool :=
  match M with
  | [] => true
  | row :: M' => isUnitRow i (comboMod p r row V) && identityRows p r M' V (i + 1)
termination_by structural M

/-- `reduceRows p M` is `M` with every entry reduced into `[0, p)`. -/
def reduceRows (p : Int) (M : List (List Int)) : List (List Int) :=
  match M with
  | [] => []
  | row :: M' => (intsMod p row) :: reduceRows p M'
termination_by structural M

/-- `checkInverse p r M V` holds when `M` and `V` are `r × r` and `M * V ≡ I (mod p)`; then
`det M` is a unit mod `p`, so `det M ≠ 0`. -/
def checkInverse (p : Int) (r : Nat) (M V : List (List Int)) : Bool :=
  Nat.beq M.length r &&
  rowsLen r M &&
  Nat.beq V.length r &&
  rowsLen r V &&
  identityRows p r (reduceRows p M) (reduceRows p V) 0

/-- `rowsInRange m dout rows` holds when every row label `(s, k)` of `rows` names a sample
`s < m` and an output coordinate `k < dout`. -/
def rowsInRange (m dout : Nat) (rows : List (Nat × Nat)) : Bool :=
  match rows with
  | [] => true
  | (s, k) :: rows' => Nat.blt s m && Nat.blt k dout && rowsInRange m dout rows'
termination_by structural rows

/-- What a rank claim is about (kernel data): the network `(widths, acts, bias)`, activation
coefficients as rational pairs (constant term first), and the parameter point `theta`. -/
structure RankInstance where
  widths : List Nat
  acts : List (List (Int × Int))
  bias : Bool
  theta : List (Int × Int)

/-- The witness of a rank lower bound: a prime `p`, integer samples, the inverses mod `p` of the
denominators of `theta` and of the activations, the rows `(s, k)` and columns of a minor of the
Jacobian, and the inverse of that minor mod `p`. -/
structure LowerWitness where
  p : Int
  samples : List (List Int)
  thetaInv : List Int
  actsInv : List (List Int)
  rows : List (Nat × Nat)
  cols : List Nat
  inv : List (List Int)

/-- The witness of a rank upper bound at `theta`: a prime `p`, integer tangent vectors (kernel
vectors of the differential), and the columns and inverse mod `p` of a minor showing that they
are independent. -/
structure UpperWitness where
  p : Int
  tangents : List (List Int)
  cols : List Nat
  inv : List (List Int)

/-- `checkRankLower inst w r` holds when the rank over `ℚ` of the Jacobian of
`θ ↦ (f_θ(x_s))_s` at `θ = inst.theta` (samples `x_s = w.samples`) is at least `r`: the instance
is well formed, the denominators are invertible mod `w.p`, and the `r × r` minor
`J[w.rows, w.cols] mod w.p`, recomputed here, has the inverse `w.inv` mod `w.p`. -/
def checkRankLower (inst : RankInstance) (w : LowerWitness) (r : Nat) : Bool :=
  shapeOk inst.widths inst.acts inst.bias inst.theta w.samples &&
  pOk w.p &&
  ratsInvOk w.p inst.theta w.thetaInv &&
  actsInvOk w.p inst.acts w.actsInv &&
  Nat.beq w.rows.length r &&
  Nat.beq w.cols.length r &&
  rowsInRange w.samples.length (lastWidth inst.widths) w.rows &&
  allLt inst.theta.length w.cols &&
  checkInverse w.p r
    (jacMinor w.p inst.widths (actsMod w.p inst.acts w.actsInv) inst.bias
      (ratsMod w.p inst.theta w.thetaInv) w.samples w.rows w.cols)
    w.inv

/-- `tangentVanishes inst pts t` holds when `d/ds f_{θ + s t}(x) = 0` at `s = 0`, exactly (over
`ℚ`), at every point `x` of `pts`. -/
def tangentVanishes (inst : RankInstance) (pts : List (List Int)) (t : List Int) : Bool :=
  match pts with
  | [] => true
  | x :: pts' =>
    allZeroQ (netEval arithQ inst.widths inst.acts inst.bias inst.theta (intsQ t) (intsQ x)
      (zeros arithQ (firstWidth inst.widths))).2 &&
    tangentVanishes inst pts' t
termination_by structural pts

/-- `tangentsVanish inst pts ts` holds when `tangentVanishes inst pts t` holds for every tangent
`t` of `ts`. -/
def tangentsVanish (inst : RankInstance) (pts : List (List Int)) (ts : List (List Int)) : Bool :=
  match ts with
  | [] => true
  | t :: ts' => tangentVanishes inst pts t && tangentsVanish inst pts ts'
termination_by structural ts

/-- `colMinor M cols` is the submatrix of `M` on the columns `cols` (all rows), entries past the
end of a row read as `0`. -/
def colMinor (M : List (List Int)) (cols : List Nat) : List (List Int) :=
  match M with
  | [] => []
  | row :: M' => (cols.map (fun c => nth row c)) :: colMinor M' cols
termination_by structural M

/-- `checkRankUpper inst w u` holds when the `s` tangents `w.tangents` are independent kernel
vectors of the differential of `θ ↦ f_θ` at `θ = inst.theta`, so that its rank there is at most
`u = #params - s`: each tangent's directional derivative of `f` vanishes exactly on the
lattice `{x ∈ ℕ^d0 : |x| ≤ D}` (unisolvent for the output's total degree `≤ D`), and an `s × s`
minor of the tangents is invertible mod `w.p`. -/
def checkRankUpper (inst : RankInstance) (w : UpperWitness) (u : Nat) : Bool :=
  let n := inst.theta.length
  let s := w.tangents.length
  shapeOk inst.widths inst.acts inst.bias inst.theta [] &&
  ratsPos inst.theta &&
  actsPos inst.acts &&
  pOk w.p &&
  Nat.beq (u + s) n &&
  rowsLen n w.tangents &&
  tangentsVanish inst (lattice (firstWidth inst.widths) (degreeBound inst.acts)) w.tangents &&
  Nat.beq w.cols.length s &&
  allLt n w.cols &&
  checkInverse w.p s (colMinor w.tangents w.cols) w.inv

end NNCert
