/-
NNCert.ResNet: constant-width ResNets `x ↦ x + σ_l(W_l x + b_l)` (or `x + V_l σ_l(W_l x + b_l)`
when `outer`), evaluated in forward mode, their Jacobian rows by reverse mode and the rank
checks on them (through NNCert.RankCore), their orbits under roots of unity (over `ℚ` and over
`ℚ[z]/(z^g - 1)`) and the implicit equations of scalar ResNets (math.md §2), the diagnostics
of critical points, and the critical locus of a scalar ResNet as a certificate.
Python twin: certify/checker/kernel/resnet.py (NNCert/ResNet); Coq twin: coq/NNCert/kernel/ResNet.v.
Same names (camelCase here), same order; the Lean-only helpers `flipParamsFrom`,
`layerSymmetricAt`, `rootParamsFrom`, `paramTermsFrom`, `coeffsXFrom`, `zeroRowsIn`,
`zeroRowsFrom`, `rowsZeroFrom`, `deadLayersFrom`, `eqPairs`, `decAt`, `removeAt`, `expandRow` and
`multiplesOk` stand for loops, `enumerate`, comprehensions, slices and list comparisons of the
Python twin and sit just before their only caller.
Parameter layout per layer: `W_l` row by row with each row's bias after it (as an MLP layer with
biases), then `V_l` row by row when `outer`. Same conventions as the rest of the library;
polynomials in several variables are term lists as in NNCert.Compind.
-/
import NNCert.Lists
import NNCert.Arith
import NNCert.Net
import NNCert.RankCore
import NNCert.Rank
import NNCert.Compind

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

/-- `resnetBack ar n outer acts th h k` is `(∂ F_k / ∂ θ for the layers acts, ∂ F_k / ∂ h)` by
reverse mode for the layers `h ↦ h + σ(W h + b)` (times `V` when `outer`) applied to `h`: the
forward values of one layer (`layerVals`, `actVd`), the gradient `gh` of the layers after it,
then `gv = Vᵀ gh` (or `gh`), `gpre = σ' ⊙ gv`, the weights' gradient `gpre ⊗ (h ++ [1])`
(then `gh ⊗ σ` for `V`), and the input's gradient `gh + Wᵀ gpre`. One pass per row. -/
def resnetBack {α : Type} (ar : Arith α) (n : Nat) (outer : Bool) (acts : List (List α))
    (th h : List α) (k : Nat) : List α × List α :=
  match acts with
  | [] => ([], unitVec ar n k)
  | cs :: acts' =>
    let hb := h ++ [ar.one]
    match actVd ar cs (layerVals ar (n + 1) n th hb) with
    | (v, dv) =>
      let thv := dropN (n * (n + 1)) th
      let out := cond outer (layerVals ar n n thv v) v
      match resnetBack ar n outer acts' (dropN (layerSize n outer) th) (vecAdd ar h out) k with
      | (grest, gh) =>
        let gv := cond outer (takeN n (backRows ar n gh thv (zeros ar n))) gh
        let gpre := hadamard ar dv gv
        let gw := scaleEach ar gpre hb
        let gthis := cond outer (gw ++ scaleEach ar gh v) gw
        (gthis ++ grest, vecAdd ar gh (takeN n (backRows ar (n + 1) gpre th (zeros ar (n + 1)))))
termination_by structural acts

/-- `resnetRow ar n outer acts th x k` is the Jacobian row `∂ F_θ(x)[k] / ∂ θ`, by one reverse
pass. -/
def resnetRow {α : Type} (ar : Arith α) (n : Nat) (outer : Bool) (acts : List (List α))
    (th x : List α) (k : Nat) : List α :=
  (resnetBack ar n outer acts th x k).1

/-- `resnetRowsMod p n outer actsM thM samples labels` is the list of the Jacobian rows
`∂ F_θ(x_s)[k] / ∂ θ mod p` for the labels `(s, k)`, from the instance reduced mod `p`
(activations `actsM`, parameters `thM`). -/
def resnetRowsMod (p : Int) (n : Nat) (outer : Bool) (actsM : List (List Int)) (thM : List Int)
    (samples : List (List Int)) (labels : List (Nat × Nat)) : List (List Int) :=
  let ar := arithMod p
  labels.map (fun l => resnetRow ar n outer actsM thM (intsMod p (nthRow samples l.1)) l.2)

/-- `checkRankLowerResnet inst w r` holds when the rank over `ℚ` of the Jacobian of
`θ ↦ (F_θ(x_s))_s` at `θ = inst.theta` (samples `x_s = w.samples`) is at least `r`: the instance
is well formed, the denominators are invertible mod `w.p`, and the rows of the labels `w.rows`,
recomputed here mod `w.p` by reverse mode, have an `r × r` minor on the columns `w.cols` that
is nonsingular mod `w.p` (`checkRankCore`). -/
def checkRankLowerResnet (inst : ResNetInstance) (w : LowerWitness) (r : Nat) : Bool :=
  resnetShapeOk inst w.samples &&
  pOk w.p &&
  ratsInvOk w.p inst.theta w.thetaInv &&
  actsInvOk w.p inst.acts w.actsInv &&
  checkRankCore w.p inst.theta.length w.samples.length inst.width w.rows
    (resnetRowsMod w.p inst.width inst.outer (actsMod w.p inst.acts w.actsInv)
      (ratsMod w.p inst.theta w.thetaInv) w.samples w.rows)
    w.cols r

/-- `resnetRowsFrom ar inst th acts x k count` is the list of the Jacobian rows
`∂ F(x)[j] / ∂ θ` for `j = k, ..., k + count - 1` (parameters `th`, activations `acts`, in the
arithmetic `ar`). -/
def resnetRowsFrom {α : Type} (ar : Arith α) (inst : ResNetInstance) (th : List α)
    (acts : List (List α)) (x : List α) (k count : Nat) : List (List α) :=
  match count with
  | 0 => []
  | c + 1 =>
    (resnetRow ar inst.width inst.outer acts th x k) ::
      resnetRowsFrom ar inst th acts x (k + 1) c
termination_by structural count

/-- `resnetKillsMod inst pts ts q` holds when every tangent of `ts` is orthogonal mod `q` to the
integer Jacobian rows at every point of `pts`. -/
def resnetKillsMod (inst : ResNetInstance) (pts ts : List (List Int)) (q : Int) : Bool :=
  let ar := arithMod q
  let th := intsMod q (nums inst.theta)
  let acts := inst.acts.map (fun a => intsMod q (nums a))
  let tq := reduceMod q ts
  pts.all (fun x => killsMod q (resnetRowsFrom ar inst th acts (intsMod q x) 0 inst.width) tq)

/-- `resnetKillsQ inst pts ts` holds when every tangent of `ts` is orthogonal, exactly over `ℚ`,
to the Jacobian rows at every point of `pts`. -/
def resnetKillsQ (inst : ResNetInstance) (pts ts : List (List Int)) : Bool :=
  pts.all (fun x =>
    (resnetRowsFrom arithQ inst inst.theta inst.acts (intsQ x) 0 inst.width).all (fun row =>
      ts.all (fun t => decide ((dot arithQ row (intsQ t)).1 = 0))))

/-- `resnetBound inst xmax ts` is a bound on `|row · t|` at every point with entries in
`[0, xmax]` (as `mlpBound`: the rows over `arithZ` on absolute values at `(xmax, ..., xmax)`). -/
def resnetBound (inst : ResNetInstance) (xmax : Nat) (ts : List (List Int)) : Int :=
  killBound
    (resnetRowsFrom arithZ inst (absNums inst.theta) (inst.acts.map (fun a => absNums a))
      (constList inst.width (Int.ofNat xmax)) 0 inst.width)
    ts

/-- `resnetTangentsKill inst ts qs` holds when every tangent of `ts` annihilates the
differential of `θ ↦ F_θ` on the unisolvent lattice `{x ∈ ℕ^n : |x| ≤ D}`, `D = Π_l deg σ_l`
(as `mlpTangentsKill`: exact rational rows without moduli, residues and a bound with them). -/
def resnetTangentsKill (inst : ResNetInstance) (ts : List (List Int)) (qs : List Int) : Bool :=
  let D := degreeBound inst.acts
  let pts := lattice inst.width D
  match qs with
  | [] => resnetKillsQ inst pts ts
  | _ :: _ =>
    ratsInt inst.theta &&
    actsInt inst.acts &&
    moduliOk qs &&
    decide (resnetBound inst D ts < prodZ qs) &&
    qs.all (fun q => resnetKillsMod inst pts ts q)

/-- `checkRankUpperResnet inst w u` holds when the `s` tangents `w.tangents` are independent
kernel vectors of the differential of `θ ↦ F_θ` at `θ = inst.theta`, so that its rank there is
at most `u = #params - s`: every tangent annihilates the exact Jacobian rows on the lattice
(`resnetTangentsKill`, moduli `w.moduli`), and an `s × s` minor of the tangents is nonsingular
mod `w.p` (`independentMod`). -/
def checkRankUpperResnet (inst : ResNetInstance) (w : UpperWitness) (u : Nat) : Bool :=
  let n := inst.theta.length
  let s := w.tangents.length
  resnetShapeOk inst [] &&
  ratsPos inst.theta &&
  actsPos inst.acts &&
  Nat.beq (u + s) n &&
  rowsLen n w.tangents &&
  resnetTangentsKill inst w.tangents w.moduli &&
  independentMod w.p n w.tangents w.cols

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
for each entry `v` of `th`, its index `i` counted from `k`. Lean-only helper of `flipParams`
(the Python twin `flip_params` uses `enumerate`). -/
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

/-- `actAt acts layer` is the activation (coefficient list, constant term first) of layer
`layer`, and `[]` past the last layer (`nthRow`). -/
def actAt (acts : List (List (Int × Int))) (layer : Nat) : List (Int × Int) :=
  nthRow acts layer

/-- `layerParams n outer layer th` is the block of parameters of layer `layer`: with
`size = layerSize n outer`, the `size` entries of `th` from index `layer * size` on (`W` row by
row with each row's bias after it, then `V` row by row when `outer`); shorter, or empty, when
`th` runs out. -/
def layerParams {α : Type} (n : Nat) (outer : Bool) (layer : Nat) (th : List α) : List α :=
  let size := layerSize n outer
  takeN size (dropN (layer * size) th)

/-- `sameLayer inst layer th2 pts` holds when the maps `h ↦ h + σ(W h + b)` (`h + V σ(W h + b)`
when `outer`) of layer `layer` under `θ = inst.theta` and under `th2` agree exactly (over `ℚ`)
at every point `h` of `pts`: `σ = actAt inst.acts layer`, the parameters are the blocks
`layerParams … layer` of `θ` and `th2`, and the values are those of a one-layer `resnetDual`
with zero tangents. -/
def sameLayer (inst : ResNetInstance) (layer : Nat) (th2 : List (Int × Int))
    (pts : List (List Int)) : Bool :=
  match pts with
  | [] => true
  | x :: pts' =>
    let n := inst.width
    let cs := [actAt inst.acts layer]
    let aTh := layerParams n inst.outer layer inst.theta
    let bTh := layerParams n inst.outer layer th2
    let z := zeros arithQ aTh.length
    let zx := zeros arithQ n
    let a := resnetDual arithQ n inst.outer cs aTh z (intsQ x) zx
    let b := resnetDual arithQ n inst.outer cs bTh z (intsQ x) zx
    qeqAll a.1 b.1 && sameLayer inst layer th2 pts'
termination_by structural pts

/-- `checkOrbitGenerator inst layer neuron t0 th2` holds when `th2` is the flip of neuron
`neuron` of layer `layer` at `t0` applied to `θ = inst.theta`, and the map of that layer is
unchanged: equal (`sameLayer`) on the lattice `{h ∈ ℕ^n : |h| ≤ deg σ_layer}` (unisolvent for
the layer map's total degree `≤ deg σ_layer`), hence everywhere; the other layers are
untouched, so `F_θ2 = F_θ`. (A single generator; the group they generate then lies in the
fiber.) The degree `(actAt inst.acts layer).length - 1` is a `Nat` subtraction; it would
differ from the Python twin's `-1` only for an empty activation, which `resnetShapeOk` and
`layer < inst.acts.length`, checked first, exclude. -/
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
  sameLayer inst layer th2 (lattice inst.width ((actAt inst.acts layer).length - 1))

/-- `resnetValueQ inst th x` is `F_th(x)` exactly over `ℚ` (unnormalised pairs): the ResNet of
`inst` at the parameters `th` and the integer input `x` (the value of `resnetDual`; its
tangent, taken along `(th, x)` itself, is discarded). -/
def resnetValueQ (inst : ResNetInstance) (th : List (Int × Int)) (x : List Int) :
    List (Int × Int) :=
  (resnetDual arithQ inst.width inst.outer inst.acts th th (intsQ x) (intsQ x)).1

/-- `orbitShapeOk inst orbit` holds when the instance is well formed, every listed vector has one
entry per parameter, and every denominator (of `θ`, the listed vectors and the activations) is
positive. -/
def orbitShapeOk (inst : ResNetInstance) (orbit : List (List (Int × Int))) : Bool :=
  resnetShapeOk inst [] &&
  ratsPos inst.theta &&
  actsPos inst.acts &&
  orbit.all (fun th => Nat.beq th.length inst.theta.length && ratsPos th)

/-- `distinctQ xs` holds when no two entries of `xs` are equal as lists of rationals
(`qeqAll`). -/
def distinctQ (xs : List (List (Int × Int))) : Bool :=
  match xs with
  | [] => true
  | a :: xs' => xs'.all (fun b => !(qeqAll a b)) && distinctQ xs'
termination_by structural xs

/-- `checkResnetOrbit inst orbit` holds when every listed parameter vector `th` gives the map `F_θ`
and no two are equal: `F_th` and `F_θ` agree exactly at every point of the principal lattice
`{x ∈ ℕ^n : |x| ≤ D}`, `D = degreeBound inst.acts` ≥ the total degree of every output, which is
unisolvent for total degree `≤ D` (`F_θ(x)` computed once per point). Core Lean used here and in
`orbitShapeOk`/`distinctQ`: `List.all`, `Nat.beq`, `!`, `&&` and a term-mode `let`, each already
on this library's checking path (`checkMlpSame` in Rank.lean, `sameLayer` above). -/
def checkResnetOrbit (inst : ResNetInstance) (orbit : List (List (Int × Int))) : Bool :=
  orbitShapeOk inst orbit &&
  (lattice inst.width (degreeBound inst.acts)).all (fun x =>
    let v := resnetValueQ inst inst.theta x
    orbit.all (fun th => qeqAll v (resnetValueQ inst th x))) &&
  distinctQ orbit

/-! Roots of unity (math.md §2): the ring `ℚ[z]/(z^g - 1)`. An element is the list of its `g`
rational coefficients on `1, z, ..., z^(g-1)`. Every `ζ` in `μ_g` is a root of `z^g - 1`, so an
identity in this ring holds for every complex `g`-th root of unity substituted for `z`. -/

/-- `cycAdd a b` is the sum in `ℚ[z]/(z^g - 1)`: the coefficientwise sums `a[i] + b[i]`
(`qadd`), over the shorter of `a` and `b`. -/
def cycAdd (a b : List (Int × Int)) : List (Int × Int) :=
  match a, b with
  | x :: a', y :: b' => (qadd x y) :: cycAdd a' b'
  | _, _ => []
termination_by structural a

/-- `cycScale c b` is the rational multiple `c * b`: every coefficient of `b` multiplied by `c`
(`qmul`). -/
def cycScale (c : Int × Int) (b : List (Int × Int)) : List (Int × Int) :=
  match b with
  | [] => []
  | y :: b' => (qmul c y) :: cycScale c b'
termination_by structural b

/-- `cycRot b` is `z * b`: every coefficient moves up one power of `z`, and the coefficient of
`z^(g-1)` wraps round to `1` because `z^g = 1` (the last entry of `b` moves to the front; `[]`
stays `[]`). -/
def cycRot (b : List (Int × Int)) : List (Int × Int) :=
  match b.reverse with
  | [] => []
  | l :: r => l :: r.reverse

/-- `cycMulAcc a b acc` is `acc + a * b` in `ℚ[z]/(z^g - 1)`: for the coefficients `c` of `a`
in turn (`c` the coefficient of `z^i`), `c * b` is added to `acc` and `b` is multiplied by `z`
(`cycRot`), so that step `i` adds `c * z^i * b`. -/
def cycMulAcc (a b acc : List (Int × Int)) : List (Int × Int) :=
  match a with
  | [] => acc
  | c :: a' => cycMulAcc a' (cycRot b) (cycAdd acc (cycScale c b))
termination_by structural a

/-- `cycMul a b` is the product `a * b` in `ℚ[z]/(z^g - 1)`, `g = b.length`: `cycMulAcc` from
the zero element. -/
def cycMul (a b : List (Int × Int)) : List (Int × Int) :=
  cycMulAcc a b (zeros arithQ b.length)

/-- `cycConst g r` is the rational `r` as an element of `ℚ[z]/(z^g - 1)`: `r` on `1`, then
`g - 1` zeros (`[]` when `g = 0`). -/
def cycConst (g : Nat) (r : Int × Int) : List (Int × Int) :=
  match g with
  | 0 => []
  | g' + 1 => r :: zeros arithQ g'

/-- `arithCyc g` is the ring `ℚ[z]/(z^g - 1)` on coefficient lists of length `g`: sum
`cycAdd`, product `cycMul`, zero the `g` zeros, one `cycConst g 1`. -/
def arithCyc (g : Nat) : Arith (List (Int × Int)) :=
  { add := cycAdd,
    mul := cycMul,
    zero := zeros arithQ g,
    one := cycConst g (1, 1) }

/-- `cycZ g` is the class of `z` in `ℚ[z]/(z^g - 1)`: a formal `g`-th root of unity (`z * 1`;
for `g = 1` it is `1`). -/
def cycZ (g : Nat) : List (Int × Int) :=
  cycRot (cycConst g (1, 1))

/-- `cycsOk g xs` holds when every element of `xs` has `g` coefficients, all with positive
denominators. -/
def cycsOk (g : Nat) (xs : List (List (Int × Int))) : Bool :=
  match xs with
  | [] => true
  | x :: xs' => Nat.beq x.length g && ratsPos x && cycsOk g xs'
termination_by structural xs

/-- `cycEqAll a b` holds when `a` and `b` have the same length and `a[i] = b[i]` coefficient by
coefficient as rationals (`qeqAll`); false on a length mismatch. -/
def cycEqAll (a b : List (List (Int × Int))) : Bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => qeqAll x y && cycEqAll a' b'
  | _, _ => false
termination_by structural a

/-- `cycConsts g xs` is the rationals `xs` as constants of `ℚ[z]/(z^g - 1)` (`cycConst g` on
every entry). -/
def cycConsts (g : Nat) (xs : List (Int × Int)) : List (List (Int × Int)) :=
  match xs with
  | [] => []
  | x :: xs' => (cycConst g x) :: cycConsts g xs'
termination_by structural xs

/-- `cycInts g xs` is the integers `xs` as constants of `ℚ[z]/(z^g - 1)` (`cycConst g (x, 1)`
for every entry `x`). -/
def cycInts (g : Nat) (xs : List Int) : List (List (Int × Int)) :=
  match xs with
  | [] => []
  | x :: xs' => (cycConst g (x, 1)) :: cycInts g xs'
termination_by structural xs

/-- `qsub a b` is the difference `a - b` of rational pairs: `qadd a (-b.1, b.2)` (not
normalised). -/
def qsub (a b : Int × Int) : Int × Int :=
  qadd a (-(b.1), b.2)

/-- `layerSymmetricAt g cs t0 ys` holds when `σ(t0 + z (y - t0)) = σ(y)` in `ℚ[z]/(z^g - 1)`
(`σ` with the coefficients `cs`, both sides by Horner's scheme) at every `y` of `ys`.
Lean-only helper of `layerSymmetric` (the Python twin loops over
`range_from(0, len(cs))`). -/
def layerSymmetricAt (g : Nat) (cs : List (Int × Int)) (t0 : Int × Int) (ys : List Int) : Bool :=
  match ys with
  | [] => true
  | y :: ys' =>
    let ar := arithCyc g
    let a := cycAdd (cycConst g t0) (cycMul (cycZ g) (cycConst g (qsub (y, 1) t0)))
    let lhs := (hornerDual ar (cycConsts g cs) a ar.zero).1
    let rhs := (hornerDual arithQ cs (y, 1) arithQ.zero).1
    qeqAll lhs (cycConst g rhs) && layerSymmetricAt g cs t0 ys'
termination_by structural ys

/-- `layerSymmetric g cs t0` holds when `σ(t0 + z (y - t0)) = σ(y)` in `ℚ[z]/(z^g - 1)` at
`y = 0, 1, ..., cs.length - 1`: both sides are polynomials in `y` of degree `< cs.length`, so
(Vandermonde) they are equal as polynomials, and `σ(t0 + ζ (y - t0)) = σ(y)` for every complex
`y` and every `ζ` in `μ_g`. -/
def layerSymmetric (g : Nat) (cs : List (Int × Int)) (t0 : Int × Int) : Bool :=
  layerSymmetricAt g cs t0 (rangeFrom 0 cs.length)

/-- `checkLayerSymmetry inst layer g t0` holds when every neuron of layer `layer` may be acted
on by `μ_g` at `t0` (`w ↦ ζ w`, `b ↦ ζ (b - t0) + t0`) without changing its output function,
for every weight and bias: the instance is well formed, `t0` has a positive denominator,
`g ≥ 1`, and the activation of the layer satisfies the identity of `layerSymmetric`. -/
def checkLayerSymmetry (inst : ResNetInstance) (layer g : Nat) (t0 : Int × Int) : Bool :=
  resnetShapeOk inst [] &&
  actsPos inst.acts &&
  decide (t0.2 > 0) &&
  Nat.ble 2 g &&
  Nat.ble g (actAt inst.acts layer).length &&
  Nat.blt layer inst.acts.length &&
  layerSymmetric g (actAt inst.acts layer) t0

/-- `rootParam n outer layer neuron g t0 k v` is entry `k` (value `v`) of the parameters acted
on by `z` at one neuron, as an element of `ℚ[z]/(z^g - 1)`: the weights `w` of neuron `neuron`
of layer `layer` map to `z w` and its bias `b` to `z (b - t0) + t0`; every other entry is the
constant `v`. The index tests are those of `flipParam` (same `Nat` arithmetic, same caveat:
when `n = 0` the Python twin raises `ZeroDivisionError` while `k / 0 = 0` here and the result
is the constant `v`; unreachable from `checkRootGenerator`, which requires `width ≥ 1`
first). -/
def rootParam (n : Nat) (outer : Bool) (layer neuron g : Nat) (t0 : Int × Int) (k : Nat)
    (v : Int × Int) : List (Int × Int) :=
  let size := layerSize n outer
  let rem := k - layer * size
  cond (Nat.beq (k / size) layer && Nat.blt rem (n * (n + 1)) && Nat.beq (rem / (n + 1)) neuron)
    (cond (Nat.blt (rem % (n + 1)) n)
      (cycMul (cycZ g) (cycConst g v))
      (cycAdd (cycMul (cycZ g) (cycConst g (qsub v t0))) (cycConst g t0)))
    (cycConst g v)

/-- `rootParamsFrom n outer layer neuron g t0 k th` is `rootParam n outer layer neuron g t0 i v`
for each entry `v` of `th`, its index `i` counted from `k`. Lean-only helper of `rootParams`
(the Python twin uses `enumerate`). -/
def rootParamsFrom (n : Nat) (outer : Bool) (layer neuron g : Nat) (t0 : Int × Int) (k : Nat)
    (th : List (Int × Int)) : List (List (Int × Int)) :=
  match th with
  | [] => []
  | v :: th' =>
    (rootParam n outer layer neuron g t0 k v) ::
      rootParamsFrom n outer layer neuron g t0 (k + 1) th'
termination_by structural th

/-- `rootParams n outer layer neuron g t0 th` is the parameter vector `th` acted on by `z` at
neuron `neuron` of layer `layer` (point `t0`), over `ℚ[z]/(z^g - 1)` (`rootParam` at every
index, from `0`). -/
def rootParams (n : Nat) (outer : Bool) (layer neuron g : Nat) (t0 : Int × Int)
    (th : List (Int × Int)) : List (List (Int × Int)) :=
  rootParamsFrom n outer layer neuron g t0 0 th

/-- `sameLayerCyc inst g layer th2 pts` is `sameLayer` over `ℚ[z]/(z^g - 1)`: the maps of
layer `layer` under `θ = inst.theta` (as constants) and under `th2` (entries in that ring)
agree exactly at every point `h` of `pts` (as constants). -/
def sameLayerCyc (inst : ResNetInstance) (g layer : Nat) (th2 : List (List (Int × Int)))
    (pts : List (List Int)) : Bool :=
  match pts with
  | [] => true
  | x :: pts' =>
    let n := inst.width
    let ar := arithCyc g
    let cs := [cycConsts g (actAt inst.acts layer)]
    let aTh := cycConsts g (layerParams n inst.outer layer inst.theta)
    let bTh := layerParams n inst.outer layer th2
    let z := zeros ar aTh.length
    let zx := zeros ar n
    let a := resnetDual ar n inst.outer cs aTh z (cycInts g x) zx
    let b := resnetDual ar n inst.outer cs bTh z (cycInts g x) zx
    cycEqAll a.1 b.1 && sameLayerCyc inst g layer th2 pts'
termination_by structural pts

/-- `checkRootGenerator inst layer neuron g t0 th2` holds when `th2` (entries in
`ℚ[z]/(z^g - 1)`, each with `g` coefficients) is `θ = inst.theta` acted on by `z` at neuron
`neuron` of layer `layer` (point `t0`), and the map of that layer is unchanged: equal
(`sameLayerCyc`) on the lattice `{h ∈ ℕ^n : |h| ≤ deg σ_layer}`, unisolvent for its degree.
So `F_θ2 = F_θ` in that ring, hence for every complex `ζ` in `μ_g` substituted for `z`. The
degree is a `Nat` subtraction, as in `checkOrbitGenerator`. -/
def checkRootGenerator (inst : ResNetInstance) (layer neuron g : Nat) (t0 : Int × Int)
    (th2 : List (List (Int × Int))) : Bool :=
  resnetShapeOk inst [] &&
  ratsPos inst.theta &&
  actsPos inst.acts &&
  decide (t0.2 > 0) &&
  Nat.ble 2 g &&
  Nat.ble g (actAt inst.acts layer).length &&
  Nat.blt layer inst.acts.length &&
  Nat.blt neuron inst.width &&
  cycsOk g th2 &&
  cycEqAll th2 (rootParams inst.width inst.outer layer neuron g t0 inst.theta) &&
  sameLayerCyc inst g layer th2 (lattice inst.width ((actAt inst.acts layer).length - 1))

/-! Implicit equations of scalar ResNets (Figure 1, math.md §2): for width 1,
`F(x) = Σ_k c_k(θ) x^k` with the `c_k` polynomials in the parameters. An equation
`P(c_0, ..., c_D) = 0` holds on the whole image of `θ ↦ (c_0, ..., c_D)` iff `P(c(θ))` is the
zero polynomial. Polynomials are term lists `((num, den), exponents)` as in `NNCert.Compind`. -/

/-- `arithTerms nvars` is the ring of polynomials in `nvars` variables as term lists: sum
`normalize (a ++ b)`, product `normalize (polyMulT a b)` (like terms combined after each step),
zero `[]`, one the constant term `1`. -/
def arithTerms (nvars : Nat) : Arith (List ((Int × Int) × List Nat)) :=
  { add := fun a b => normalize (a ++ b),
    mul := fun a b => normalize (polyMulT a b),
    zero := [],
    one := [constTerm (1, 1) nvars] }

/-- `unitExps nvars k` is the exponent vector of the variable `k` among `nvars` variables: `1`
at index `k`, `0` elsewhere (all `0` when `k ≥ nvars`). -/
def unitExps (nvars k : Nat) : List Nat :=
  match nvars, k with
  | 0, _ => []
  | nvars' + 1, 0 => 1 :: zeroExps nvars'
  | nvars' + 1, k' + 1 => 0 :: unitExps nvars' k'
termination_by structural nvars

/-- `varTerms nvars k` is the variable `k` as a polynomial in `nvars` variables: one term with
coefficient `1` and exponents `unitExps nvars k`. -/
def varTerms (nvars k : Nat) : List ((Int × Int) × List Nat) :=
  [((1, 1), unitExps nvars k)]

/-- `paramTermsFrom nvars k free` is, for each flag `f` of `free` at index `i` counted from `k`,
the variable `i` (`varTerms nvars i`) when `f`, else the zero polynomial `[]`. Lean-only helper
of `paramTerms` (the Python twin uses `enumerate`). -/
def paramTermsFrom (nvars k : Nat) (free : List Bool) : List (List ((Int × Int) × List Nat)) :=
  match free with
  | [] => []
  | f :: free' => (cond f (varTerms nvars k) []) :: paramTermsFrom nvars (k + 1) free'
termination_by structural free

/-- `paramTerms nvars free` is the parameter vector as polynomials: parameter `k` is the
variable `k` where `free[k]`, else the constant `0`. -/
def paramTerms (nvars : Nat) (free : List Bool) : List (List ((Int × Int) × List Nat)) :=
  paramTermsFrom nvars 0 free

/-- `scalarMapTerms inst free` is `F(x)` of the width-1 ResNet `inst` as a polynomial in the
parameters (variables `0 .. P-1`, `P = free.length`, fixed at `0` where not free) and `x`
(variable `P`): `resnetDual` over `arithTerms (P + 1)` with the activations' coefficients as
constants, from the input `x`; `[]` when there is no output. -/
def scalarMapTerms (inst : ResNetInstance) (free : List Bool) : List ((Int × Int) × List Nat) :=
  let nv := free.length + 1
  let ar := arithTerms nv
  let acts := inst.acts.map (fun cs => cs.map (fun c => [constTerm c nv]))
  let th := paramTerms nv free
  nthRow
    (resnetDual ar 1 inst.outer acts th (zeros ar th.length) [varTerms nv free.length] [[]]).1 0

/-- `coeffX ts x k` is the coefficient of `x^k` (`x` the variable with index `x`) in the
polynomial `ts`, as a polynomial in the others: the terms whose exponent of `x` is `k`, with
their exponents cut after the first `x` entries and a `0` appended (so the variable `x` no longer
occurs), in the order of `ts`. -/
def coeffX (ts : List ((Int × Int) × List Nat)) (x k : Nat) : List ((Int × Int) × List Nat) :=
  match ts with
  | [] => []
  | t :: ts' =>
    cond (Nat.beq (nthNat t.2 x) k) ((t.1, takeN x t.2 ++ [0]) :: coeffX ts' x k)
      (coeffX ts' x k)
termination_by structural ts

/-- `coeffsXFrom ts x k count` is `[coeffX ts x k, coeffX ts x (k + 1), ...]`, `count` entries.
Lean-only helper of `coeffsX` (the Python twin's comprehension over `range(degree + 1)` becomes
structural recursion on the count). -/
def coeffsXFrom (ts : List ((Int × Int) × List Nat)) (x k count : Nat) :
    List (List ((Int × Int) × List Nat)) :=
  match count with
  | 0 => []
  | count' + 1 => (coeffX ts x k) :: coeffsXFrom ts x (k + 1) count'
termination_by structural count

/-- `coeffsX ts x degree` is `[c_0, ..., c_degree]`: the coefficients of `x^0, ..., x^degree`
in `ts` (`coeffX`). -/
def coeffsX (ts : List ((Int × Int) × List Nat)) (x degree : Nat) :
    List (List ((Int × Int) × List Nat)) :=
  coeffsXFrom ts x 0 (degree + 1)

/-- `checkImplicit inst free degree eq` holds when `eq(c_0, ..., c_degree)` is the zero
polynomial in the free parameters, where `F(x) = Σ_k c_k x^k` for the width-1 ResNet `inst`:
then every point of the image of `θ ↦ (c_0, ..., c_degree)` (parameters fixed at `0` where not
free) satisfies `eq = 0`. Exactly: `F - Σ_k c_k x^k` (the expansion by `horner` over
`arithTerms`), like terms combined, has only zero coefficients, so no term of `F` above `degree`
in `x` can hide. The instance has width 1, at least one layer, nonconstant activations
with positive denominators and one flag per parameter; `eq` has exponent vectors of length
`degree + 1` and positive denominators; `eq(c(θ))` is computed over `arithTerms` and every
coefficient of it, like terms combined, is zero. -/
def checkImplicit (inst : ResNetInstance) (free : List Bool) (degree : Nat)
    (eq : List ((Int × Int) × List Nat)) : Bool :=
  let P := free.length
  let nv := P + 1
  let ar := arithTerms nv
  let ts := scalarMapTerms inst free
  let cs := coeffsX ts P degree
  let value := polyEval ar ((termCoeffs eq).map (fun c => [constTerm c nv])) (termExps eq) cs
  let expansion := horner ar cs (varTerms nv P)
  Nat.beq inst.width 1 &&
  Nat.ble 1 inst.acts.length &&
  actsNonconst inst.acts &&
  actsPos inst.acts &&
  Nat.beq P (resnetParams 1 inst.acts inst.outer) &&
  expsOk (degree + 1) eq &&
  ratsPos (termCoeffs eq) &&
  !allZeroTerms (normalize eq) &&
  allZeroTerms (normalize (ts ++ termsScale (constTerm (-1, 1) nv) expansion)) &&
  allZeroTerms (normalize value)

/-! Diagnostics of critical points (math.md §2): the zero rows of the weight matrices `W_l` (the
neurons that are constant) and the dead layers (adding a constant, or nothing). -/

/-- `rowIsZero n outer th layer i` holds when row `i` of `W_layer` is zero (its `n` weights, not
its bias): neuron `i` of the layer is constant. The row is read from `layerParams n outer layer
th` at offset `i * (n + 1)`. -/
def rowIsZero (n : Nat) (outer : Bool) (th : List (Int × Int)) (layer i : Nat) : Bool :=
  allZeroQ (takeN n (dropN (i * (n + 1)) (layerParams n outer layer th)))

/-- `zeroRowsIn n outer th ell i count` is `(ell, j)` for every `j = i, ..., i + count - 1`
whose row of `W_ell` is zero (`rowIsZero`), in increasing order. Lean-only helper of
`zeroRowsFrom` (the inner loop, over the neurons, of the Python twin's comprehension in
`zero_rows`). -/
def zeroRowsIn (n : Nat) (outer : Bool) (th : List (Int × Int)) (ell i count : Nat) :
    List (Nat × Nat) :=
  match count with
  | 0 => []
  | count' + 1 =>
    let rest := zeroRowsIn n outer th ell (i + 1) count'
    cond (rowIsZero n outer th ell i) ((ell, i) :: rest) rest
termination_by structural count

/-- `zeroRowsFrom inst ell count` is the zero rows `(l, i)` of `W_l` for the layers
`l = ell, ..., ell + count - 1`, layer by layer, neurons in increasing order. Lean-only helper
of `zeroRows` (the outer loop, over the layers, of the Python twin's comprehension). -/
def zeroRowsFrom (inst : ResNetInstance) (ell count : Nat) : List (Nat × Nat) :=
  match count with
  | 0 => []
  | count' + 1 =>
    zeroRowsIn inst.width inst.outer inst.theta ell 0 inst.width ++
      zeroRowsFrom inst (ell + 1) count'
termination_by structural count

/-- `zeroRows inst` is `(layer, neuron)` for every zero row of a weight matrix `W_layer` of
`θ = inst.theta`, layer by layer, neurons in increasing order. -/
def zeroRows (inst : ResNetInstance) : List (Nat × Nat) :=
  zeroRowsFrom inst 0 inst.acts.length

/-- `rowsZeroFrom n outer th layer i count` holds when the rows `i, ..., i + count - 1` of
`W_layer` are all zero (`rowIsZero`). Lean-only helper of `layerDead` (the Python twin's
`all(...)` over `range(n)`). -/
def rowsZeroFrom (n : Nat) (outer : Bool) (th : List (Int × Int)) (layer i count : Nat) : Bool :=
  match count with
  | 0 => true
  | count' + 1 => rowIsZero n outer th layer i && rowsZeroFrom n outer th layer (i + 1) count'
termination_by structural count

/-- `layerDead inst layer` holds when layer `layer` adds a constant (`W_layer = 0`: every row
zero) or nothing (`V_layer = 0` when `outer`: the entries of the layer's block after its
`n * (n + 1)` weights and biases are zero). -/
def layerDead (inst : ResNetInstance) (layer : Nat) : Bool :=
  let n := inst.width
  let v := dropN (n * (n + 1)) (layerParams n inst.outer layer inst.theta)
  rowsZeroFrom n inst.outer inst.theta layer 0 n || (inst.outer && allZeroQ v)

/-- `deadLayersFrom inst ell count` is every dead layer (`layerDead`) among
`ell, ..., ell + count - 1`, in increasing order. Lean-only helper of `deadLayers` (the Python
twin's comprehension over `range(len(inst.acts))`). -/
def deadLayersFrom (inst : ResNetInstance) (ell count : Nat) : List Nat :=
  match count with
  | 0 => []
  | count' + 1 =>
    let rest := deadLayersFrom inst (ell + 1) count'
    cond (layerDead inst ell) (ell :: rest) rest
termination_by structural count

/-- `deadLayers inst` is every dead layer of `θ = inst.theta`, in increasing order. -/
def deadLayers (inst : ResNetInstance) : List Nat :=
  deadLayersFrom inst 0 inst.acts.length

/-- `eqPairs a b` holds when the lists of pairs of naturals `a` and `b` are equal: same length,
same pairs. Lean-only helper of `checkDiagnostics` (the Python twin compares with `==`; the
lists of naturals are compared with `expsEq`). -/
def eqPairs (a b : List (Nat × Nat)) : Bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => Nat.beq x.1 y.1 && Nat.beq x.2 y.2 && eqPairs a' b'
  | _, _ => false
termination_by structural a

/-- `checkDiagnostics inst rows dead` holds when the instance is well formed with positive
denominators and `rows` and `dead` are exactly the zero rows (`zeroRows`) and the dead layers
(`deadLayers`) of `θ = inst.theta`, in that order. -/
def checkDiagnostics (inst : ResNetInstance) (rows : List (Nat × Nat)) (dead : List Nat) : Bool :=
  resnetShapeOk inst [] &&
  ratsPos inst.theta &&
  eqPairs rows (zeroRows inst) &&
  expsEq dead (deadLayers inst)

/-! Trivial groups: orbits of size 1 (math.md §2). If `τ(s) = σ(s + t0)` is a polynomial in
`s^g` with `g ≥ 2` and `d = deg σ`, then `g ∣ d` and the coefficient of `s^(d-1)`,
`a_(d-1) + d a_d t0`, vanishes: `t0 = -a_(d-1) / (d a_d)` is forced. So the group of a layer is
trivial iff at that `t0`, `τ` has a term `s^k` with `k` odd (real) or, for every
`g = 2, ..., d`, with `g` not dividing `k` (complex). The support of `τ` is computed in
integers. -/

/-- `forcedT0 cs` is `-a_(d-1) / (d a_d)` for `σ = Σ_k cs[k] t^k` of degree
`d = cs.length - 1 ≥ 1`, with the denominator made positive (`(0, 1)` when `d < 1`; `a_d ≠ 0`
is checked by the caller). Names as already used in this library: `Int.ofNat` (NNCert.Compind),
`decide` on an `Int` comparison (NNCert.Arith), `cond` and `Nat.blt` (this file). -/
def forcedT0 (cs : List (Int × Int)) : Int × Int :=
  let d := cs.length - 1
  let p1 := (nthQ cs (d - 1)).1
  let q1 := (nthQ cs (d - 1)).2
  let p2 := (nthQ cs d).1
  let q2 := (nthQ cs d).2
  cond (Nat.blt d 1) (0, 1)
    (cond (decide (p2 < 0)) (p1 * q2, -(q1 * Int.ofNat d * p2))
      (-(p1 * q2), q1 * Int.ofNat d * p2))

/-- `prodDens cs` is the product of the denominators of the rational pairs `cs`. -/
def prodDens (cs : List (Int × Int)) : Int :=
  match cs with
  | [] => 1
  | c :: cs' => c.2 * prodDens cs'
termination_by structural cs

/-- `clearDens pre cs` is `M * cs[j]` as integers, `M = pre * prodDens cs`: entry `j` is
`num_j * pre * (the product of the other denominators)`, those before `j` folded into `pre`. -/
def clearDens (pre : Int) (cs : List (Int × Int)) : List Int :=
  match cs with
  | [] => []
  | c :: cs' => (c.1 * pre * prodDens cs') :: clearDens (pre * c.2) cs'
termination_by structural cs

/-- `zpolyAdd a b` is the sum of two integer coefficient lists (the longer one's tail kept). -/
def zpolyAdd (a b : List Int) : List Int :=
  match a, b with
  | [], _ => b
  | _, [] => a
  | x :: a', y :: b' => (x + y) :: zpolyAdd a' b'
termination_by structural a

/-- `timesUPlus p ps` is `(u + p) * P` for the integer polynomial `P = ps` in `u`. -/
def timesUPlus (p : Int) (ps : List Int) : List Int :=
  zpolyAdd (ps.map (fun x => p * x)) (0 :: ps)

/-- `taylorInt p q cs` is `W(u) = q^(L-1) σ((u + p) / q)` for `σ = cs` (integers,
`L = cs.length`), by `W(a :: rest) = a q^(rest.length) + (u + p) W(rest)`: the coefficient of
`u^k` is `q^(L-1-k) τ_k`, `τ(s) = σ(s + p/q)`, so (for `q ≠ 0`) it has the support of `τ`. -/
def taylorInt (p q : Int) (cs : List Int) : List Int :=
  match cs with
  | [] => []
  | a :: cs' => zpolyAdd [a * powAr arithZ q cs'.length] (timesUPlus p (taylorInt p q cs'))
termination_by structural cs

/-- `offFrom g k ws` holds when some `ws[i] ≠ 0` has an exponent `k + i` that is not a
multiple of `g` (`%` on `Nat` is `Nat.mod`, as in `flipParam` of this file). -/
def offFrom (g k : Nat) (ws : List Int) : Bool :=
  match ws with
  | [] => false
  | w :: ws' => (!(decide (w = 0)) && !(Nat.beq (k % g) 0)) || offFrom g (k + 1) ws'
termination_by structural ws

/-- `layerTrivial cplx cs` holds when the group of a layer with activation `cs` is trivial: the
degree `d = cs.length - 1` is at least 1 with `a_d ≠ 0`, and at `forcedT0 cs` the translate
(`taylorInt` of `clearDens 1 cs`) has a term `s^k` with `k` odd (real) or, for every
`g = 2, ..., d`, with `g` not dividing `k` (complex). `List.all`: core Lean's structural
`def all : List α → (α → Bool) → Bool` (read in leanprover/lean4, List/Basic), as used in
NNCert.Rank. -/
def layerTrivial (cplx : Bool) (cs : List (Int × Int)) : Bool :=
  let d := cs.length - 1
  let t0 := forcedT0 cs
  let ws := taylorInt t0.1 t0.2 (clearDens 1 cs)
  let orders := cond cplx (rangeNat 2 (d - 1)) [2]
  Nat.ble 1 d &&
  nonzeroQ (nthQ cs d) &&
  orders.all (fun g => offFrom g 0 ws)

/-- `checkTrivialOrbit inst cplx orbit` holds when every layer's group is trivial
(`layerTrivial`), so the orbit of `θ` is `{θ}`, and `orbit` lists exactly that one element. -/
def checkTrivialOrbit (inst : ResNetInstance) (cplx : Bool) (orbit : List (List (Int × Int))) :
    Bool :=
  resnetShapeOk inst [] &&
  ratsPos inst.theta &&
  actsPos inst.acts &&
  inst.acts.all (fun cs => layerTrivial cplx cs) &&
  (match orbit with
   | [e] => ratsPos e && qeqAll e inst.theta
   | _ => false)

/-! The coefficients of `F_θ` at width one (math.md §2). -/

/-- `thetaMapTerms inst` is `F_θ(x)` of a width-1 ResNet at the rational point `θ`, as a
polynomial in `x` (the only variable, index 0): the forward pass over `arithTerms 1` with the
parameters constant. -/
def thetaMapTerms (inst : ResNetInstance) : List ((Int × Int) × List Nat) :=
  let ar := arithTerms 1
  let acts := inst.acts.map (fun cs => cs.map (fun c => [constTerm c 1]))
  let th := inst.theta.map (fun t => [constTerm t 1])
  nthRow (resnetDual ar 1 inst.outer acts th (zeros ar th.length) [varTerms 1 0] [[]]).1 0

/-- `negCoeffTerms k cs` is `-Σ_j cs[j] x^(k + j)` as terms over the one variable `x`. Core names:
`Nat.beq` (Prelude's `def Nat.beq : Nat → Nat → Bool`, checked in the stored
leanprover/lean4 sources) and `List.length` in `checkScalarCoeffs`; the rest is this library's
(`qneg`, `normalize`, `allZeroTerms`, `thetaMapTerms`, `horner`, `termsScale`, `constTerm`). -/
def negCoeffTerms (k : Nat) (cs : List (Int × Int)) : List ((Int × Int) × List Nat) :=
  match cs with
  | [] => []
  | c :: cs' => (qneg c, [k]) :: negCoeffTerms (k + 1) cs'
termination_by structural cs

/-- `checkScalarCoeffs inst cs` holds when `cs = [c_0, ..., c_D]` are the coefficients of
`F_θ(x) = Σ_k c_k x^k` for the width-1 ResNet at `θ`, `D = Π deg σ_l`: `F_θ - Σ_k c_k x^k`,
like terms combined, has only zero coefficients (an identity of polynomials, so no term of
`F_θ` of degree above `D` can hide). -/
def checkScalarCoeffs (inst : ResNetInstance) (cs : List (Int × Int)) : Bool :=
  Nat.beq inst.width 1 &&
  resnetShapeOk inst [] &&
  ratsPos inst.theta &&
  actsPos inst.acts &&
  ratsPos cs &&
  Nat.beq cs.length (degreeBound inst.acts + 1) &&
  allZeroTerms (normalize (thetaMapTerms inst ++ negCoeffTerms 0 cs))

/-! The critical locus of a scalar ResNet as a certificate (math.md §2). `J(θ) = (∂c_k/∂θ_j)` is
the Jacobian of `θ ↦ (c_0, ..., c_D)`, `F_θ(x) = Σ_k c_k(θ) x^k` (width 1), as polynomials in θ
recomputed from the network. With `g = min(D + 1, #params)` the certificate ships `P`, cofactors
`Q_i` and coefficients `c_i` with `M_i = Q_i P` for ALL `g × g` minors `M_i` of `J` and
`Σ_i c_i M_i = lam P^k` (`lam ≠ 0`). Lean-only helpers (explicit structural recursion for loops
of the Python twin): `decAt` (of `polyDeriv`), `removeAt` (of `expandRow`), `expandRow` (of
`detTerms`) and `multiplesOk` (of `checkCriticalLocus`); the comprehensions of `jacobianTerms`,
`subsets`, `submatrix` and `allMinors` and the sum `Σ_i c_i M_i` are `List.map`, `.flatMap`,
`List.zipWith` and `List.foldr`.
Core names used, checked against the stored leanprover/lean4 sources (no toolchain here):
`List.map` (`| [] => [] | a :: as => f a :: map f as`), `List.foldr` (`(f : α → β → β)
(init : β) : List α → β`, `| [] => init | a :: l => f a (foldr f init l)`), `List.zipWith`
(`(f : α → β → γ) : (xs : List α) → (ys : List β) → List γ`, function first, stops at the
shorter list like Python's `zip`), `List.replicate` (`(n : Nat) → (a : α) → List α`,
structural on `n`), `List.flatMap` (called with dot notation as in `NNCert.Lists.lattice`, so
the list is the receiver whatever the order of the explicit arguments), `List.length` and `++`
(`instance : Append (List α) := ⟨List.append⟩`): src/Init/Data/List/Basic.lean and
src/Init/Prelude.lean; `Nat.beq`, `Nat.ble`, `cond`, `Int.ofNat`, `decide`, `!`, `&&` and `%` on
`Nat` (`Nat.mod`, reduced by the kernel on literals): src/Init/Prelude.lean, as elsewhere in
this library. Only lists of integers and naturals, no well-founded recursion: every
recursive def is `termination_by structural` on a parameter its first `match` takes apart
(`detTerms` calls itself under the `fun` it hands to `expandRow`, on the smaller `n'`, as
`NNCert.Lists.lattice` does under `flatMap`). -/

/-- `decAt es j` is the exponent vector `es` with entry `j` lowered by one (unchanged past the
end). Lean-only helper of `polyDeriv` (the Python twin's nested `dec_at`, a slice). -/
def decAt (es : List Nat) (j : Nat) : List Nat :=
  match es, j with
  | [], _ => []
  | e :: es', 0 => (e - 1) :: es'
  | e :: es', j' + 1 => e :: decAt es' j'
termination_by structural es

/-- `polyDeriv p j` is the formal derivative `∂p/∂x_j` in the variable `x_j`: each term with a
positive exponent `e` of `x_j` becomes `e` times the coefficient with that exponent lowered by
one; the other terms are dropped (order of `p` kept, not normalised). -/
def polyDeriv (p : List ((Int × Int) × List Nat)) (j : Nat) : List ((Int × Int) × List Nat) :=
  match p with
  | [] => []
  | t :: p' =>
    cond (Nat.ble 1 (nthNat t.2 j))
      ((qmul (Int.ofNat (nthNat t.2 j), 1) t.1, decAt t.2 j) :: polyDeriv p' j)
      (polyDeriv p' j)
termination_by structural p

/-- `jacobianTerms inst`: row `k`, column `j` is `∂c_k/∂θ_j` as a polynomial in the
`n = #params` parameters (`scalarMapTerms` with every parameter free, the exponent of `x`
dropped by `takeN n`). -/
def jacobianTerms (inst : ResNetInstance) : List (List (List ((Int × Int) × List Nat))) :=
  let n := inst.theta.length
  let cs := coeffsX (scalarMapTerms inst (List.replicate n true)) n (degreeBound inst.acts)
  let cs' := cs.map (fun c => c.map (fun t => (t.1, takeN n t.2)))
  cs'.map (fun c => (rangeNat 0 n).map (fun j => normalize (polyDeriv c j)))

/-- `removeAt j xs` is `xs` without its entry `j` (`xs` itself past the end). Lean-only helper
of `expandRow` (the Python twin's slice `[*row[:j], *row[j + 1:]]`). -/
def removeAt {α : Type} (j : Nat) (xs : List α) : List α :=
  match xs, j with
  | [], _ => []
  | _ :: xs', 0 => xs'
  | x :: xs', j' + 1 => x :: removeAt j' xs'
termination_by structural xs

/-- `expandRow nv d r rest j` is `Σ_i (-1)^(j+i) r[i] · d (rest without column j + i)`, like
terms combined at each step (the cofactor expansion along a first row `r`, entries counted from
`j`, `d` the determinant of one size less). Lean-only helper of `detTerms` (its loop over
`reversed(range(len(r)))`: the entry `j` is added in front of the sum of the later ones). -/
def expandRow (nv : Nat) (d : List (List (List ((Int × Int) × List Nat))) →
    List ((Int × Int) × List Nat)) (r : List (List ((Int × Int) × List Nat)))
    (rest : List (List (List ((Int × Int) × List Nat)))) (j : Nat) :
    List ((Int × Int) × List Nat) :=
  match r with
  | [] => []
  | e :: r' =>
    normalize (termsScale (constTerm (cond (Nat.beq (j % 2) 0) (1, 1) (-1, 1)) nv)
        (polyMulT e (d (rest.map (removeAt j)))) ++
      expandRow nv d r' rest (j + 1))
termination_by structural r

/-- `detTerms nv n m` is the determinant of the `n × n` polynomial matrix `m` (`nv` variables)
by cofactor expansion along the first row: `1` when `n = 0`, `[]` (zero) when `m` has no row
left. -/
def detTerms (nv n : Nat) (m : List (List (List ((Int × Int) × List Nat)))) :
    List ((Int × Int) × List Nat) :=
  match n, m with
  | 0, _ => [constTerm (1, 1) nv]
  | _ + 1, [] => []
  | n' + 1, r :: rest => expandRow nv (fun mm => detTerms nv n' mm) r rest 0
termination_by structural n

/-- `subsets k xs` is the list of the `k`-element sublists of `xs`, in lexicographic order of
positions. -/
def subsets (k : Nat) (xs : List Nat) : List (List Nat) :=
  match k, xs with
  | 0, _ => [[]]
  | _ + 1, [] => []
  | k' + 1, x :: xs' => (subsets k' xs').map (fun s => x :: s) ++ subsets (k' + 1) xs'
termination_by structural xs

/-- `submatrix rows cols m` is the matrix of the entries of `m` in the given rows and columns
(`[]` past the end). -/
def submatrix (rows cols : List Nat) (m : List (List (List ((Int × Int) × List Nat)))) :
    List (List (List ((Int × Int) × List Nat))) :=
  rows.map (fun i => cols.map (fun j => nthRow (nthRow m i) j))

/-- `allMinors nv g m` is every `g × g` minor of `m`: row subsets outer, column subsets inner,
both lexicographic (the number of columns is that of the first row). -/
def allMinors (nv g : Nat) (m : List (List (List ((Int × Int) × List Nat)))) :
    List (List ((Int × Int) × List Nat)) :=
  let colSets := subsets g (rangeNat 0 (nthRow m 0).length)
  (subsets g (rangeNat 0 m.length)).flatMap
    (fun rs => colSets.map (fun cs => detTerms nv g (submatrix rs cs m)))

/-- `multiplesOk nv p ms qs`: equal lengths and `M_i - Q_i · P` has only zero coefficients for
every `i`. Lean-only helper of `checkCriticalLocus` (its `multiples_ok`, an `all(...)` over
`zip(ms, cofs)`). -/
def multiplesOk (nv : Nat) (p : List ((Int × Int) × List Nat))
    (ms qs : List (List ((Int × Int) × List Nat))) : Bool :=
  match ms, qs with
  | [], [] => true
  | m :: ms', q :: qs' =>
    allZeroTerms (normalize (m ++ termsScale (constTerm (-1, 1) nv) (polyMulT q p))) &&
    multiplesOk nv p ms' qs'
  | _, _ => false
termination_by structural ms

/-- `checkCriticalLocus inst g p k lam cofs bez value`: width 1, `g = min(D + 1, n)`
(`n = #params`), `P ≠ 0`, and for the list `M_1, ..., M_N` of ALL `g × g` minors of the
Jacobian of `θ ↦ (c_0, ..., c_D)` (recomputed from the network): `M_i = cofs_i · P` for every
`i` and `Σ_i bez_i M_i = lam P^k` with `lam ≠ 0`, `k ≥ 1` (exact identities over `ℚ`), and
`P(θ) = value`. Consequence (elementary algebra, not proved here): at a point of a field of
characteristic 0 all `M_i` vanish iff `P` does. The `let`s are not evaluated before they are
used, and `cond` reduces only the branch it takes, so the minors are computed only after the
shape checks pass. -/
def checkCriticalLocus (inst : ResNetInstance) (g : Nat) (p : List ((Int × Int) × List Nat))
    (k : Nat) (lam : Int) (cofs bez : List (List ((Int × Int) × List Nat))) (value : Int × Int) :
    Bool :=
  let n := inst.theta.length
  let D := degreeBound inst.acts
  let gmax := cond (Nat.ble (D + 1) n) (D + 1) n
  let ms := allMinors n g (jacobianTerms inst)
  let lhs := List.foldr (fun a acc => a ++ acc) []
    (List.zipWith (fun c m => normalize (polyMulT c m)) bez ms)
  let rhs := termsScale (constTerm (-lam, 1) n) (powAr (arithTerms n) p k)
  cond (Nat.beq inst.width 1 && resnetShapeOk inst [] && ratsPos inst.theta &&
      actsPos inst.acts && Nat.beq g gmax && Nat.ble 1 k && !(decide (lam = 0)) &&
      expsOk n p && polysOk n cofs && polysOk n bez && decide (0 < value.2) &&
      !(allZeroTerms (normalize p)))
    (Nat.beq bez.length ms.length &&
      multiplesOk n p ms cofs &&
      allZeroTerms (normalize (lhs ++ rhs)) &&
      qeq (polyEval arithQ (termCoeffs p) (termExps p) inst.theta) value)
    false

end NNCert
