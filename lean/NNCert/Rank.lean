/-
NNCert.Rank: rank certificates for polynomial MLPs.
Python twin: certify/checker/kernel/rank.py (NNCert/Rank); Coq twin:
coq/NNCert/kernel/Rank.v. Same names (camelCase here), same order.
`checkInverse` and its helpers (`M * V ≡ I (mod p)`) stay for the composition-independence
witnesses (NNCert.Compind); the rank checks of every family decide nonsingularity by
elimination in NNCert.RankCore.
Lower bound: the kernel recomputes the Jacobian rows `∂ f_θ(x_s)[k] / ∂ θ mod p` of the labels
`(s, k)` by reverse mode (`netRow`, one pass per row) and `checkRankCore` eliminates the minor
on the given columns: no inverse is shipped.
Upper bound at `θ`: integer tangents orthogonal to every exact Jacobian row on the unisolvent
lattice `{x ∈ ℕ^d0 : |x| ≤ D}` (`mlpTangentsKill`: exact rational rows, or residues modulo
pairwise coprime moduli whose product exceeds a bound on `|row · t|`), independent by a minor
that is nonsingular mod `p` (`independentMod`).
-/
import NNCert.Lists
import NNCert.Arith
import NNCert.Net
import NNCert.RankCore

namespace NNCert

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

/-- `mlpRowsMod p widths actsM bias thM samples labels` is the list of the Jacobian rows
`∂ f_θ(x_s)[k] / ∂ θ mod p` for the labels `(s, k)`, each by one reverse pass (`netRow` over
`arithMod p`) from the instance reduced mod `p` (activations `actsM`, parameters `thM`). -/
def mlpRowsMod (p : Int) (widths : List Nat) (actsM : List (List Int)) (bias : Bool)
    (thM : List Int) (samples : List (List Int)) (labels : List (Nat × Nat)) :
    List (List Int) :=
  let ar := arithMod p
  labels.map (fun l => netRow ar widths actsM bias thM (intsMod p (nthRow samples l.1)) l.2)

/-- What a rank claim is about (kernel data): the network `(widths, acts, bias)`, activation
coefficients as rational pairs (constant term first), and the parameter point `theta`. -/
structure RankInstance where
  widths : List Nat
  acts : List (List (Int × Int))
  bias : Bool
  theta : List (Int × Int)

/-- The witness of a rank lower bound: a prime `p`, integer samples, the inverses mod `p` of the
denominators of `theta` and of the activations, and the rows `(sample, output)` and columns of a
minor of the Jacobian that the kernel recomputes and eliminates itself (no inverse is
shipped). -/
structure LowerWitness where
  p : Int
  samples : List (List Int)
  thetaInv : List Int
  actsInv : List (List Int)
  rows : List (Nat × Nat)
  cols : List Nat

/-- The witness of a rank upper bound at `theta`: a prime `p`, integer tangent vectors (kernel
vectors of the differential), the columns of a minor showing them independent mod `p`, and the
moduli of the exactness check (empty: exact rational arithmetic). -/
structure UpperWitness where
  p : Int
  tangents : List (List Int)
  cols : List Nat
  moduli : List Int

/-- `checkRankLower inst w r` holds when the rank over `ℚ` of the Jacobian of
`θ ↦ (f_θ(x_s))_s` at `θ = inst.theta` (samples `x_s = w.samples`) is at least `r`: the instance
is well formed, the denominators are invertible mod `w.p`, and the rows of the labels `w.rows`,
recomputed here mod `w.p` by reverse mode, have an `r × r` minor on the columns `w.cols` that
is nonsingular mod `w.p` (`checkRankCore`). -/
def checkRankLower (inst : RankInstance) (w : LowerWitness) (r : Nat) : Bool :=
  shapeOk inst.widths inst.acts inst.bias inst.theta w.samples &&
  pOk w.p &&
  ratsInvOk w.p inst.theta w.thetaInv &&
  actsInvOk w.p inst.acts w.actsInv &&
  checkRankCore w.p inst.theta.length w.samples.length (lastWidth inst.widths) w.rows
    (mlpRowsMod w.p inst.widths (actsMod w.p inst.acts w.actsInv) inst.bias
      (ratsMod w.p inst.theta w.thetaInv) w.samples w.rows)
    w.cols r

/-- `ratsInt rs` holds when every rational pair of `rs` has denominator `1`. -/
def ratsInt (rs : List (Int × Int)) : Bool :=
  match rs with
  | [] => true
  | r :: rs' => decide (r.2 = 1) && ratsInt rs'
termination_by structural rs

/-- `actsInt acts` holds when `ratsInt` holds for every activation's coefficient list. -/
def actsInt (acts : List (List (Int × Int))) : Bool :=
  match acts with
  | [] => true
  | a :: acts' => ratsInt a && actsInt acts'
termination_by structural acts

/-- `nums rs` is the list of the numerators of the rational pairs `rs`. -/
def nums (rs : List (Int × Int)) : List Int :=
  match rs with
  | [] => []
  | r :: rs' => (r.1) :: nums rs'
termination_by structural rs

/-- `absNums rs` is the list of the absolute values `|num|` of the numerators of `rs`. -/
def absNums (rs : List (Int × Int)) : List Int :=
  match rs with
  | [] => []
  | r :: rs' => (absZ r.1) :: absNums rs'
termination_by structural rs

/-- `constList n v` is the list `[v, ..., v]` of length `n`. -/
def constList (n : Nat) (v : Int) : List Int :=
  match n with
  | 0 => []
  | n' + 1 => v :: constList n' v
termination_by structural n

/-- `rowsFrom ar inst th acts x k count` is the list of the Jacobian rows `∂ f(x)[j] / ∂ θ` for
`j = k, k + 1, ..., k + count - 1` (network of `inst`, parameters `th`, activations `acts`, all
in the arithmetic `ar`), each by one reverse pass. -/
def rowsFrom {α : Type} (ar : Arith α) (inst : RankInstance) (th : List α)
    (acts : List (List α)) (x : List α) (k count : Nat) : List (List α) :=
  match count with
  | 0 => []
  | c + 1 => (netRow ar inst.widths acts inst.bias th x k) :: rowsFrom ar inst th acts x (k + 1) c
termination_by structural count

/-- `outRows ar inst th acts x` is the list of all `d_out` Jacobian rows at `x`. -/
def outRows {α : Type} (ar : Arith α) (inst : RankInstance) (th : List α)
    (acts : List (List α)) (x : List α) : List (List α) :=
  rowsFrom ar inst th acts x 0 (lastWidth inst.widths)

/-- `mlpKillsMod inst pts ts q` holds when every tangent of `ts` is orthogonal mod `q` to the
integer Jacobian rows (numerators of `inst`, reduced mod `q`) at every point of `pts`. -/
def mlpKillsMod (inst : RankInstance) (pts ts : List (List Int)) (q : Int) : Bool :=
  let ar := arithMod q
  let th := intsMod q (nums inst.theta)
  let acts := inst.acts.map (fun a => intsMod q (nums a))
  let tq := reduceMod q ts
  pts.all (fun x => killsMod q (outRows ar inst th acts (intsMod q x)) tq)

/-- `mlpKillsQ inst pts ts` holds when every tangent of `ts` is orthogonal, exactly over `ℚ`,
to the Jacobian rows at every point of `pts`. -/
def mlpKillsQ (inst : RankInstance) (pts ts : List (List Int)) : Bool :=
  pts.all (fun x =>
    (outRows arithQ inst inst.theta inst.acts (intsQ x)).all (fun row =>
      ts.all (fun t => decide ((dot arithQ row (intsQ t)).1 = 0))))

/-- `mlpBound inst xmax ts` is a bound on `|row · t|` over every point with entries in
`[0, xmax]`, every output row and every tangent of `ts`: the rows evaluated exactly
(`arithZ`) on `|θ|`, the `|coefficients|` and `x = (xmax, ..., xmax)` bound every row entry
(they are sums of products of those, each monotone in them), then `killBound`. -/
def mlpBound (inst : RankInstance) (xmax : Nat) (ts : List (List Int)) : Int :=
  killBound
    (outRows arithZ inst (absNums inst.theta) (inst.acts.map (fun a => absNums a))
      (constList (firstWidth inst.widths) (Int.ofNat xmax)))
    ts

/-- `mlpTangentsKill inst ts qs` holds when every tangent `t` of `ts` satisfies
`d/ds f_{θ + s t}(x) = 0` exactly at every `x` of the lattice `{x ∈ ℕ^d0 : |x| ≤ D}`
(unisolvent for the degree `D` of `f` in `x`), so `t` is in the kernel of the differential at
`θ`. With no moduli: exact rational rows (`mlpKillsQ`); otherwise the instance is integral,
every `row · t` is `0` mod every modulus, and `|row · t|` is below their product (`moduliOk`,
`mlpBound`), hence `0`. -/
def mlpTangentsKill (inst : RankInstance) (ts : List (List Int)) (qs : List Int) : Bool :=
  let D := degreeBound inst.acts
  let pts := lattice (firstWidth inst.widths) D
  match qs with
  | [] => mlpKillsQ inst pts ts
  | _ :: _ =>
    ratsInt inst.theta &&
    actsInt inst.acts &&
    moduliOk qs &&
    decide (mlpBound inst D ts < prodZ qs) &&
    qs.all (fun q => mlpKillsMod inst pts ts q)

/-- `checkRankUpper inst w u` holds when the `s` tangents `w.tangents` are independent kernel
vectors of the differential of `θ ↦ f_θ` at `θ = inst.theta`, so that its rank there is at most
`u = #params - s`: every tangent annihilates the exact Jacobian rows on the unisolvent lattice
(`mlpTangentsKill`, with the moduli `w.moduli`), and an `s × s` minor of the tangents is
nonsingular mod `w.p` (`independentMod`). -/
def checkRankUpper (inst : RankInstance) (w : UpperWitness) (u : Nat) : Bool :=
  let n := inst.theta.length
  let s := w.tangents.length
  shapeOk inst.widths inst.acts inst.bias inst.theta [] &&
  ratsPos inst.theta &&
  actsPos inst.acts &&
  Nat.beq (u + s) n &&
  rowsLen n w.tangents &&
  mlpTangentsKill inst w.tangents w.moduli &&
  independentMod w.p n w.tangents w.cols

/-! Equivalence of two parameter points (kind equiv of family mlp). Only names this library
already uses on its checking path: `netEval` (NNCert.Net), `arithQ`, `intsQ`, `qeqAll`,
`ratsPos`, `actsPos` (NNCert.Arith), `lattice` (NNCert.Lists), `shapeOk`, `firstWidth`,
`degreeBound` (NNCert.Net), and the core `List.all`, `List.length`, `Nat.beq`, `&&`, `!`,
`Prod.fst` (`.1`), each already used in this file or in NNCert.ReLU (`checkReluDiffer`).
Core signatures confirmed in leanprover/lean4's sources: `Nat.beq : (@& Nat) → (@& Nat) → Bool`
(Init/Prelude.lean, kernel-accelerated on `Nat`) and `List.all : List α → (α → Bool) → Bool`
(Init/Data/List/Basic.lean, structural on the list), so `xs.all (fun x => …)` is `List.all`. -/

/-- `mlpValueQ inst th x` is `f_th(x)` exactly over `ℚ` (unnormalised pairs) at the integer
input `x`: `netEval`'s value; its tangent, taken along `(th, x)` itself so that every list
has its full length, is discarded. -/
def mlpValueQ (inst : RankInstance) (th : List (Int × Int)) (x : List Int) : List (Int × Int) :=
  (netEval arithQ inst.widths inst.acts inst.bias th th (intsQ x) (intsQ x)).1

/-- `equivShapeOk inst other` holds when the instance is well formed, `other` has one entry
per parameter, and every denominator (of `θ`, `other` and the activations) is positive. -/
def equivShapeOk (inst : RankInstance) (other : List (Int × Int)) : Bool :=
  shapeOk inst.widths inst.acts inst.bias inst.theta [] &&
  Nat.beq other.length inst.theta.length &&
  ratsPos inst.theta &&
  ratsPos other &&
  actsPos inst.acts

/-- `checkMlpSame inst other` holds when `f_θ = f_other` as polynomial maps: every output has
total degree at most `D = degreeBound inst.acts`, and the two agree exactly at every point of
the principal lattice `{x ∈ ℕ^n0 : |x| ≤ D}`, which is unisolvent for total degree `≤ D`. -/
def checkMlpSame (inst : RankInstance) (other : List (Int × Int)) : Bool :=
  equivShapeOk inst other &&
  (lattice (firstWidth inst.widths) (degreeBound inst.acts)).all (fun x =>
    qeqAll (mlpValueQ inst inst.theta x) (mlpValueQ inst other x))

/-- `checkMlpDiffer inst other x` holds when `f_θ(x) ≠ f_other(x)` at the integer input `x`,
exactly over `ℚ`. -/
def checkMlpDiffer (inst : RankInstance) (other : List (Int × Int)) (x : List Int) : Bool :=
  equivShapeOk inst other &&
  Nat.beq x.length (firstWidth inst.widths) &&
  !(qeqAll (mlpValueQ inst inst.theta x) (mlpValueQ inst other x))

end NNCert
