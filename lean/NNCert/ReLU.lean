/-
NNCert.ReLU: ReLU networks `F = A_L ∘ ReLU ∘ … ∘ ReLU ∘ A_1` (math.md §3): exact evaluation over
`ℚ`, reverse mode with the activation pattern fixed, and the rank, equivalence and symmetry
checks.
Python twin: certify/checker/kernel/relu.py (NNCert/ReLU); Coq twin: coq/NNCert/kernel/ReLU.v.
Same names (camelCase here), same order; the reverse-mode helpers `layerVals`, `addScaledRow`,
`backRows` and `scaleEach` are shared with the MLP rows and live in NNCert.Net, the rank
decisions in NNCert.RankCore.
Parameter layout as an MLP with biases: layer by layer, neuron by neuron, the incoming weights
then the bias. Rationals are unnormalised pairs `(num, den)` with `den > 0`.
-/
import NNCert.Lists
import NNCert.Arith
import NNCert.Net
import NNCert.RankCore
import NNCert.Rank

namespace NNCert

/-- A ReLU network with widths `(n_0, …, n_L)` at the rational point `theta`. -/
structure ReluInstance where
  widths : List Nat
  theta : List (Int × Int)

/-- The witness of a rank lower bound: a prime `p`, a batch of rational inputs, the inverses
mod `p` of the denominators of `theta` and of the batch, and the rows `(point, output)` and
columns of a minor of the batch Jacobian (the kernel recomputes the minor and decides its
nonsingularity itself: no inverse is shipped). -/
structure ReluLowerWitness where
  p : Int
  batch : List (List (Int × Int))
  thetaInv : List Int
  batchInv : List (List Int)
  rows : List (Nat × Nat)
  cols : List Nat

/-! Exact evaluation over `ℚ`. -/

/-- `reluQ a` is `max(a, 0)` for a rational pair with positive denominator. -/
def reluQ (a : Int × Int) : Int × Int :=
  cond (decide (a.1 > 0)) a (0, 1)

/-- `reluVecQ hs` is `reluQ` applied to every entry of `hs`. -/
def reluVecQ (hs : List (Int × Int)) : List (Int × Int) :=
  match hs with
  | [] => []
  | h :: hs' => (reluQ h) :: reluVecQ hs'
termination_by structural hs

/-- `reluForward prev rest th h` is `(F(x), the pre-activations of every hidden layer)`
exactly over `ℚ`, through the layers of widths `rest` after a layer of width `prev`, from the
input `h`; the last layer is affine. -/
def reluForward (prev : Nat) (rest : List Nat) (th h : List (Int × Int)) :
    List (Int × Int) × List (List (Int × Int)) :=
  match rest with
  | [] => (h, [])
  | d :: rest' =>
    let pre := layerVals arithQ (prev + 1) d th (h ++ [(1, 1)])
    match rest' with
    | [] => (pre, [])
    | _ :: _ =>
      match reluForward d rest' (dropN (d * (prev + 1)) th) (reluVecQ pre) with
      | (out, ps) => (out, pre :: ps)
termination_by structural rest

/-- `reluEval widths th x` is `(F_θ(x), the hidden pre-activations)` exactly over `ℚ`. -/
def reluEval (widths : List Nat) (th x : List (Int × Int)) :
    List (Int × Int) × List (List (Int × Int)) :=
  match widths with
  | [] => ([], [])
  | d0 :: rest => reluForward d0 rest th x

/-- `allNonzeroQ xs` holds when no entry of `xs` is zero (numerator `≠ 0`). -/
def allNonzeroQ (xs : List (Int × Int)) : Bool :=
  match xs with
  | [] => true
  | x :: xs' => !(decide (x.1 = 0)) && allNonzeroQ xs'
termination_by structural xs

/-- `presNonzero pres` holds when no hidden pre-activation is zero: the input lies on no bent
hyperplane of the network. -/
def presNonzero (pres : List (List (Int × Int))) : Bool :=
  match pres with
  | [] => true
  | pre :: pres' => allNonzeroQ pre && presNonzero pres'
termination_by structural pres

/-- `patternOf pres` is the activation pattern: which hidden neurons are active (`> 0`). -/
def patternOf (pres : List (List (Int × Int))) : List (List Bool) :=
  pres.map (fun pre => pre.map (fun a => decide (a.1 > 0)))

/-- `batchNonzero widths th batch` holds when no batch point lies on a bent hyperplane. -/
def batchNonzero (widths : List Nat) (th : List (Int × Int)) (batch : List (List (Int × Int))) :
    Bool :=
  match batch with
  | [] => true
  | x :: batch' => presNonzero (reluEval widths th x).2 && batchNonzero widths th batch'
termination_by structural batch

/-- `reluShapeOk widths th batch` holds when there is at least one layer, every width is
positive, `th` has `D = Σ n_l (n_{l-1} + 1)` entries with positive denominators, and every batch
point has the input width and positive denominators. -/
def reluShapeOk (widths : List Nat) (th : List (Int × Int)) (batch : List (List (Int × Int))) :
    Bool :=
  Nat.ble 2 widths.length &&
  allPos widths &&
  Nat.beq th.length (nParams widths true) &&
  ratsPos th &&
  rowsLen (firstWidth widths) batch &&
  actsPos batch

/-! Rank. -/

/-- `batchPatterns widths th batch` is the activation pattern of every batch point, computed
once, exactly over `ℚ`. -/
def batchPatterns (widths : List Nat) (th : List (Int × Int)) (batch : List (List (Int × Int))) :
    List (List (List Bool)) :=
  batch.map (fun x => patternOf (reluEval widths th x).2)

/-- `maskVals ar pat xs` is ReLU with the fixed pattern `pat` on plain values: `x` where active,
`0` elsewhere (over the shorter list). -/
def maskVals {α : Type} (ar : Arith α) (pat : List Bool) (xs : List α) : List α :=
  match pat, xs with
  | b :: pat', x :: xs' => (cond b x ar.zero) :: maskVals ar pat' xs'
  | _, _ => []
termination_by structural pat

/-- `backLayer ar prev hb g th` is `(gradient of a layer's parameters, gradient of its input h)`
from the gradient `g` of its pre-activations `W h + b`. -/
def backLayer {α : Type} (ar : Arith α) (prev : Nat) (hb g th : List α) : List α × List α :=
  (scaleEach ar g hb, takeN prev (backRows ar (prev + 1) g th (zeros ar (prev + 1))))

/-- `reluBack ar prev rest pats th h k` is `(∂F_k/∂θ for the layers of widths rest, ∂F_k/∂h)`
by reverse mode with the activation pattern `pats` fixed: the gradient of output `k` at `θ`
whenever `pats` is the pattern of the input and no pre-activation is zero. -/
def reluBack {α : Type} (ar : Arith α) (prev : Nat) (rest : List Nat) (pats : List (List Bool))
    (th h : List α) (k : Nat) : List α × List α :=
  match rest with
  | [] => ([], [])
  | d :: rest' =>
    let hb := h ++ [ar.one]
    let pat := nthRow pats 0
    cond rest'.isEmpty (backLayer ar prev hb (unitVec ar d k) th)
      (match reluBack ar d rest' (dropN 1 pats) (dropN (d * (prev + 1)) th)
          (maskVals ar pat (layerVals ar (prev + 1) d th hb)) k with
        | (grest, gh) =>
          match backLayer ar prev hb (maskVals ar pat gh) th with
          | (gthis, gin) => (gthis ++ grest, gin))
termination_by structural rest

/-- `reluRowsMod p widths patsAll thM batchM rows` is the list of the rows of the batch
Jacobian of `θ ↦ (F_θ(z_s))_s` mod `p` for the labels `(s, k)` of `rows`: the gradient of `F_k`
at `z_s` by one reverse-mode pass with the pattern of `z_s` fixed (`thM`, `batchM` already
reduced mod `p`). -/
def reluRowsMod (p : Int) (widths : List Nat) (patsAll : List (List (List Bool)))
    (thM : List Int) (batchM : List (List Int)) (rows : List (Nat × Nat)) : List (List Int) :=
  match rows with
  | [] => []
  | r :: rows' =>
    ((reluBack (arithMod p) (firstWidth widths) (dropN 1 widths) (nthRow patsAll r.1) thM
      (nthRow batchM r.1) r.2).1) :: reluRowsMod p widths patsAll thM batchM rows'
termination_by structural rows

/-- `checkReluRankLower inst w r` holds when the rank over `ℚ` of the Jacobian of
`θ ↦ (F_θ(z))_{z ∈ batch}` at `θ = inst.theta` is at least `r`: the instance is well formed,
the denominators are invertible mod `w.p`, no batch point lies on a bent hyperplane (so the
pattern is constant near `θ` and `F` is a polynomial in `θ` there), and the rows of the labels
`w.rows`, recomputed here mod `w.p` with the pattern fixed, have an `r × r` minor on the
columns `w.cols` that is nonsingular mod `w.p` (`checkRankCore`). -/
def checkReluRankLower (inst : ReluInstance) (w : ReluLowerWitness) (r : Nat) : Bool :=
  reluShapeOk inst.widths inst.theta w.batch &&
  pOk w.p &&
  ratsInvOk w.p inst.theta w.thetaInv &&
  actsInvOk w.p w.batch w.batchInv &&
  batchNonzero inst.widths inst.theta w.batch &&
  checkRankCore w.p inst.theta.length w.batch.length (lastWidth inst.widths) w.rows
    (reluRowsMod w.p inst.widths (batchPatterns inst.widths inst.theta w.batch)
      (ratsMod w.p inst.theta w.thetaInv) (actsMod w.p w.batch w.batchInv) w.rows)
    w.cols r

/-- `dotNz g t` is `g · t` over the unnormalised pairs with the entries where `t` is `0`
skipped: the same rational as `dot arithQ g (intsQ t)` with far smaller pairs (a sum multiplies
the denominators of every term it adds; a scaling tangent is nonzero on one neuron's weights
only). No new core name: `cond` and `decide` on an `Int` equality are used as in this file's
other definitions, `qadd`/`qmul` are NNCert.Arith's. -/
def dotNz (g : List (Int × Int)) (t : List Int) : Int × Int :=
  match g, t with
  | x :: g', y :: t' =>
    cond (decide (y = 0)) (dotNz g' t') (qadd (qmul x (y, 1)) (dotNz g' t'))
  | _, _ => (0, 1)
termination_by structural g

/-- `gradKills g ts` holds when every tangent `t` of `ts` is orthogonal to the exact gradient
`g`: `g · t = 0` over `ℚ`. -/
def gradKills (g : List (Int × Int)) (ts : List (List Int)) : Bool :=
  match ts with
  | [] => true
  | t :: ts' => decide ((dotNz g t).1 = 0) && gradKills g ts'
termination_by structural ts

/-- `outputsKill inst pats x ts k count` is `gradKills` for the exact gradients (reverse mode
over `ℚ`, pattern `pats` fixed) of the outputs `k, k + 1, …, k + count - 1` at `x`. -/
def outputsKill (inst : ReluInstance) (pats : List (List Bool)) (x : List (Int × Int))
    (ts : List (List Int)) (k count : Nat) : Bool :=
  match count with
  | 0 => true
  | c + 1 =>
    gradKills (reluBack arithQ (firstWidth inst.widths) (dropN 1 inst.widths) pats inst.theta x
      k).1 ts &&
    outputsKill inst pats x ts (k + 1) c
termination_by structural count

/-- `tangentsVanishRelu inst batch ts` holds when `d/ds F_{θ + s t}(z) = 0` exactly (over `ℚ`,
the pattern of `z` fixed) for every tangent `t` of `ts` and every point `z` of `batch`: each
tangent lies in the kernel of the batch Jacobian. -/
def tangentsVanishRelu (inst : ReluInstance) (batch : List (List (Int × Int)))
    (ts : List (List Int)) : Bool :=
  match batch with
  | [] => true
  | x :: batch' =>
    outputsKill inst (patternOf (reluEval inst.widths inst.theta x).2) x ts 0
      (lastWidth inst.widths) &&
    tangentsVanishRelu inst batch' ts
termination_by structural batch

/-- `checkReluRankUpper inst batch w u` holds when the `s` tangents `w.tangents` are independent
vectors in the kernel of the batch Jacobian at `θ` (exactly; no batch point on a bent
hyperplane), so that its rank is at most `u = D - s`. The rows are exact rational gradients, so
the witness carries no moduli (`w.moduli` must be empty); independence by `independentMod`. -/
def checkReluRankUpper (inst : ReluInstance) (batch : List (List (Int × Int)))
    (w : UpperWitness) (u : Nat) : Bool :=
  let n := inst.theta.length
  let s := w.tangents.length
  reluShapeOk inst.widths inst.theta batch &&
  batchNonzero inst.widths inst.theta batch &&
  Nat.beq (u + s) n &&
  rowsLen n w.tangents &&
  w.moduli.isEmpty &&
  tangentsVanishRelu inst batch w.tangents &&
  independentMod w.p n w.tangents w.cols

/-! Equivalence on the line (input width 1). -/

/-- `qle a b` is `a ≤ b` for rationals with positive denominators. -/
def qle (a b : Int × Int) : Bool :=
  decide (a.1 * b.2 ≤ b.1 * a.2)

/-- `sideOk mode u v` holds when an affine function with values `u` at `a` and `v` at `b > a`
keeps its sign on `[a, b]` (mode `0`), on the ray `(-∞, b]` (mode `1`), or on `[a, +∞)`
(mode `2`, and any larger mode). -/
def sideOk (mode : Nat) (u v : Int × Int) : Bool :=
  let z : Int × Int := (0, 1)
  match mode with
  | 0 => (qle z u && qle z v) || (qle u z && qle v z)
  | 1 => (qle z v && qle v u) || (qle u v && qle v z)
  | _ => (qle z u && qle u v) || (qle v u && qle u z)

/-- `layerSideOk mode us vs` is `sideOk mode` for every neuron of a layer (false on a length
mismatch). -/
def layerSideOk (mode : Nat) (us vs : List (Int × Int)) : Bool :=
  match us, vs with
  | [], [] => true
  | u :: us', v :: vs' => sideOk mode u v && layerSideOk mode us' vs'
  | _, _ => false
termination_by structural us

/-- `presSideOk mode pus pvs` is `layerSideOk mode` for every hidden layer (false on a length
mismatch). -/
def presSideOk (mode : Nat) (pus pvs : List (List (Int × Int))) : Bool :=
  match pus, pvs with
  | [], [] => true
  | us :: pus', vs :: pvs' => layerSideOk mode us vs && presSideOk mode pus' pvs'
  | _, _ => false
termination_by structural pus

/-- `evalPoints widths th pts` is `reluEval widths th [t]` at every point `t` of `pts`. -/
def evalPoints (widths : List Nat) (th pts : List (Int × Int)) :
    List (List (Int × Int) × List (List (Int × Int))) :=
  pts.map (fun t => reluEval widths th [t])

/-- `pairsOk evs` holds when every hidden pre-activation keeps its sign between consecutive
points (mode `0`). -/
def pairsOk (evs : List (List (Int × Int) × List (List (Int × Int)))) : Bool :=
  match evs with
  | [] => true
  | a :: evs' =>
    match evs' with
    | [] => true
    | b :: _ => presSideOk 0 a.2 b.2 && pairsOk evs'
termination_by structural evs

/-- `firstPairOk evs` holds when the signs are constant on the ray left of the second point
(mode `1`); false with fewer than two points. -/
def firstPairOk (evs : List (List (Int × Int) × List (List (Int × Int)))) : Bool :=
  match evs with
  | a :: b :: _ => presSideOk 1 a.2 b.2
  | _ => false

/-- `lastPairOk evs` holds when the signs are constant on the ray right of the second-to-last
point (mode `2`); false with fewer than two points. -/
def lastPairOk (evs : List (List (Int × Int) × List (List (Int × Int)))) : Bool :=
  match evs with
  | [] => false
  | a :: evs' =>
    match evs' with
    | [] => false
    | [b] => presSideOk 2 a.2 b.2
    | _ :: _ :: _ => lastPairOk evs'
termination_by structural evs

/-- `piecesOk evs` holds when, by induction over the layers, every pre-activation (hence `F`)
is affine on each piece between consecutive points and on the two outer rays. -/
def piecesOk (evs : List (List (Int × Int) × List (List (Int × Int)))) : Bool :=
  firstPairOk evs && pairsOk evs && lastPairOk evs

/-- `sameOutputs a b` holds when the outputs agree at every point (false on a length
mismatch). -/
def sameOutputs (a b : List (List (Int × Int) × List (List (Int × Int)))) : Bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => qeqAll x.1 y.1 && sameOutputs a' b'
  | _, _ => false
termination_by structural a

/-- `strictlyIncreasing pts` holds when every point is smaller than the next. -/
def strictlyIncreasing (pts : List (Int × Int)) : Bool :=
  match pts with
  | [] => true
  | a :: pts' =>
    match pts' with
    | [] => true
    | b :: _ => qle a b && !(qle b a) && strictlyIncreasing pts'
termination_by structural pts

/-- `checkReluEquiv inst th2 pts` holds when `F_θ = F_θ2` on all of `ℝ` (input width 1): both
are affine on every piece cut by the sorted points `pts` and on the outer rays, and they agree
at every point, so they agree on each piece. -/
def checkReluEquiv (inst : ReluInstance) (th2 pts : List (Int × Int)) : Bool :=
  let ev1 := evalPoints inst.widths inst.theta pts
  let ev2 := evalPoints inst.widths th2 pts
  reluShapeOk inst.widths inst.theta [] &&
  reluShapeOk inst.widths th2 [] &&
  Nat.beq (firstWidth inst.widths) 1 &&
  ratsPos pts &&
  strictlyIncreasing pts &&
  piecesOk ev1 &&
  piecesOk ev2 &&
  sameOutputs ev1 ev2

/-- The line `a_1, b_1, c_1, a_2, b_2, c_2, …, a_k, b_k` from a batch of one-dimensional points
(their first coordinates) and the cuts `c_j` placed after every second batch point while cuts
remain. Core names used (verified in leanprover/lean4 src/Init/Prelude.lean: `List.length`,
`Nat.beq`; the rest is this library's). -/
def coverPoints (batch : List (List (Int × Int))) (cuts : List (Int × Int)) (second : Bool) :
    List (Int × Int) :=
  match batch with
  | [] => []
  | x :: batch' =>
    nthQ x 0 ::
      (if second then
        (match cuts with
        | c :: cuts' => c :: coverPoints batch' cuts' false
        | [] => coverPoints batch' [] false)
      else coverPoints batch' cuts true)
termination_by structural batch

/-- Input width 1: the batch holds two points of every linear piece. On the sorted line
`a_1 < b_1 < c_1 < … < a_k < b_k` every hidden pre-activation keeps its sign between consecutive
points and on the outer rays, and none vanishes at a batch point, so every input off the
breakpoints has the activation pattern of some pair `a_j ≠ b_j`. -/
def checkReluCover (inst : ReluInstance) (batch : List (List (Int × Int)))
    (cuts : List (Int × Int)) : Bool :=
  let pts := coverPoints batch cuts false
  reluShapeOk inst.widths inst.theta batch &&
  Nat.beq (firstWidth inst.widths) 1 &&
  ratsPos cuts &&
  Nat.beq batch.length (2 * cuts.length + 2) &&
  batchNonzero inst.widths inst.theta batch &&
  strictlyIncreasing pts &&
  piecesOk (evalPoints inst.widths inst.theta pts)

/-- `checkReluDiffer inst th2 x` holds when `F_θ(x) ≠ F_θ2(x)`, exactly. -/
def checkReluDiffer (inst : ReluInstance) (th2 : List (Int × Int)) (x : Int × Int) : Bool :=
  reluShapeOk inst.widths inst.theta [] &&
  reluShapeOk inst.widths th2 [] &&
  Nat.beq (firstWidth inst.widths) 1 &&
  decide (x.2 > 0) &&
  !(qeqAll (reluEval inst.widths inst.theta [x]).1 (reluEval inst.widths th2 [x]).1)

/-! Permutations and positive scalings of the hidden neurons. -/

/-- `onesQ n` is `n` copies of the rational `1`. -/
def onesQ (n : Nat) : List (Int × Int) :=
  match n with
  | 0 => []
  | k + 1 => (1, 1) :: onesQ k
termination_by structural n

/-- `isPerm n xs` holds when `xs` is a permutation of `0, …, n - 1`. -/
def isPerm (n : Nat) (xs : List Nat) : Bool :=
  Nat.beq xs.length n && allLt n xs && nodupNat xs

/-- `allPosQ xs` holds when every rational of `xs` is positive (numerator and denominator). -/
def allPosQ (xs : List (Int × Int)) : Bool :=
  match xs with
  | [] => true
  | x :: xs' => decide (x.1 > 0) && decide (x.2 > 0) && allPosQ xs'
termination_by structural xs

/-- `permsOk ws perms scales` holds when, for every hidden layer `l`, `perms[l]` is a
permutation of the `ws[l]` neurons and `scales[l]` are `ws[l]` positive rationals (`ws`: the
widths after the input; over the shortest list). -/
def permsOk (ws : List Nat) (perms : List (List Nat)) (scales : List (List (Int × Int))) : Bool :=
  match ws, perms, scales with
  | w :: ws', pm :: perms', sc :: scales' =>
    isPerm w pm && Nat.beq sc.length w && allPosQ sc && permsOk ws' perms' scales'
  | _, _, _ => true
termination_by structural ws

/-- `qinvPos a` is `1 / a` for a positive rational. -/
def qinvPos (a : Int × Int) : Int × Int :=
  (a.2, a.1)

/-- `gatherRow row permPrev scalePrev lam` is the list of new incoming weights of a neuron:
`lam * row[permPrev[j]] / scalePrev[j]` for every `j`. -/
def gatherRow (row : List (Int × Int)) (permPrev : List Nat) (scalePrev : List (Int × Int))
    (lam : Int × Int) : List (Int × Int) :=
  match permPrev, scalePrev with
  | j :: pp', s :: sp' => (qmul lam (qmul (nthQ row j) (qinvPos s))) :: gatherRow row pp' sp' lam
  | _, _ => []
termination_by structural permPrev

/-- `symLayer rowlen th permPrev scalePrev perm scale` is one layer of `g.θ`: new neuron `k` is
old neuron `perm[k]` scaled by `scale[k]` (incoming weights and bias), its inputs reordered by
`permPrev` and divided by `scalePrev`. -/
def symLayer (rowlen : Nat) (th : List (Int × Int)) (permPrev : List Nat)
    (scalePrev : List (Int × Int)) (perm : List Nat) (scale : List (Int × Int)) :
    List (Int × Int) :=
  match perm, scale with
  | k :: perm', lam :: scale' =>
    let row := takeN rowlen (dropN (k * rowlen) th)
    gatherRow row permPrev scalePrev lam ++ [qmul lam (nthQ row (rowlen - 1))] ++
      symLayer rowlen th permPrev scalePrev perm' scale'
  | _, _ => []
termination_by structural perm

/-- `applySym prev rest perms scales permPrev scalePrev th` is `g.θ` through the layers of
widths `rest`: hidden layers take their permutation and scaling from `perms` and `scales`, the
output layer keeps its neurons. -/
def applySym (prev : Nat) (rest : List Nat) (perms : List (List Nat))
    (scales : List (List (Int × Int))) (permPrev : List Nat) (scalePrev : List (Int × Int))
    (th : List (Int × Int)) : List (Int × Int) :=
  match rest with
  | [] => []
  | d :: rest' =>
    let perm := cond rest'.isEmpty (rangeNat 0 d) (nthRow perms 0)
    let scale := cond rest'.isEmpty (onesQ d) (nthRow scales 0)
    symLayer (prev + 1) (takeN (d * (prev + 1)) th) permPrev scalePrev perm scale ++
      applySym d rest' (dropN 1 perms) (dropN 1 scales) perm scale (dropN (d * (prev + 1)) th)
termination_by structural rest

/-- `checkReluSymmetry inst th2 perms scales` holds when `th2 = g.θ` for the permutations
`perms` and positive scalings `scales` of the hidden layers; such a `g` preserves `F` since
`ReLU(λ a) = λ ReLU(a)` for `λ > 0`. -/
def checkReluSymmetry (inst : ReluInstance) (th2 : List (Int × Int)) (perms : List (List Nat))
    (scales : List (List (Int × Int))) : Bool :=
  let w := inst.widths
  reluShapeOk w inst.theta [] &&
  reluShapeOk w th2 [] &&
  Nat.beq (perms.length + 2) w.length &&
  Nat.beq (scales.length + 2) w.length &&
  permsOk (dropN 1 w) perms scales &&
  qeqAll (applySym (firstWidth w) (dropN 1 w) perms scales (rangeNat 0 (firstWidth w))
    (onesQ (firstWidth w)) inst.theta) th2

end NNCert
