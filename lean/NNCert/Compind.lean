/-
NNCert.Compind: composition independence of `σ(p_1), ..., σ(p_k)` (after the constant `1` when
the family has biases), exact dependence relations, and the coefficient conditions of
Prop. 2.1 and Prop. 3.3.
Python twin: certify/checker/kernel/compind.py (NNCert/Compind). Same names (camelCase here),
same order, with exceptions forced by Lean's define-before-use rule or by structural
recursion: `qint` sits before `scaledCompositions` and `qmul3` before `delta2` (their first
users; Python defines them later), and the Lean-only helpers `familyRowsMod`, `dependentFrom`,
`anyZeroColFrom` and `hiddenOkFrom` stand for comprehensions and loops of the Python twin. Dependence relations are checked by expanding their
coefficients (`relationPoly`: exact rational arithmetic, like terms combined), not by
evaluation at points.
Conventions: a multivariate polynomial is a list of terms `((num, den), exponents)`, the
exponent list of length `nvars` (entries `Nat`, so never negative); the activation `σ` is a
coefficient list of rational pairs, constant term first; rationals are unnormalised pairs with
positive denominators; values mod `p` lie in `[0, p)`.
-/
import NNCert.Lists
import NNCert.Arith
import NNCert.Net
import NNCert.Rank

namespace NNCert

/-- `powAr ar x e` is `x^e` by `e` multiplications: `x * (x * (... * (x * one)))`. -/
def powAr {α : Type} (ar : Arith α) (x : α) (e : Nat) : α :=
  match e with
  | 0 => ar.one
  | e' + 1 => ar.mul x (powAr ar x e')
termination_by structural e

/-- `monoEval ar es xs` is the monomial `Π_k xs[k]^es[k]` over the shorter of `es` and `xs`,
multiplied from the last factor (`x_0^e_0 * (x_1^e_1 * (... * one))`). -/
def monoEval {α : Type} (ar : Arith α) (es : List Nat) (xs : List α) : α :=
  match es, xs with
  | e :: es', x :: xs' => ar.mul (powAr ar x e) (monoEval ar es' xs')
  | _, _ => ar.one
termination_by structural es

/-- `polyEval ar cs ess xs` is `Σ_t cs[t] * x^ess[t]` over the shorter of `cs` and `ess`,
summed from the last term. -/
def polyEval {α : Type} (ar : Arith α) (cs : List α) (ess : List (List Nat))
    (xs : List α) : α :=
  match cs, ess with
  | c :: cs', es :: ess' => ar.add (ar.mul c (monoEval ar es xs)) (polyEval ar cs' ess' xs)
  | _, _ => ar.zero
termination_by structural cs

/-- `horner ar cs a` is `σ(a)` for `σ(t) = Σ_k cs[k] t^k`, by Horner's scheme. -/
def horner {α : Type} (ar : Arith α) (cs : List α) (a : α) : α :=
  match cs with
  | [] => ar.zero
  | c :: cs' => ar.add c (ar.mul a (horner ar cs' a))
termination_by structural cs

/-- `termCoeffs p` is the list of the coefficients `(num, den)` of the terms of `p`. -/
def termCoeffs (p : List ((Int × Int) × List Nat)) : List (Int × Int) :=
  match p with
  | [] => []
  | t :: p' => (t.1) :: termCoeffs p'
termination_by structural p

/-- `termExps p` is the list of the exponent vectors of the terms of `p`. -/
def termExps (p : List ((Int × Int) × List Nat)) : List (List Nat) :=
  match p with
  | [] => []
  | t :: p' => (t.2) :: termExps p'
termination_by structural p

/-- `expsOk nvars p` holds when every exponent vector of `p` has `nvars` entries and every
coefficient has a positive denominator. (The Python twin also checks that the exponents are
nonnegative; here they are `Nat`, so that holds by their type.) -/
def expsOk (nvars : Nat) (p : List ((Int × Int) × List Nat)) : Bool :=
  rowsLen nvars (termExps p) && ratsPos (termCoeffs p)

/-- `polysOk nvars ps` holds when `expsOk nvars p` holds for every polynomial `p` of `ps`. -/
def polysOk (nvars : Nat) (ps : List (List ((Int × Int) × List Nat))) : Bool :=
  match ps with
  | [] => true
  | p :: ps' => expsOk nvars p && polysOk nvars ps'
termination_by structural ps

/-- `polysInvOk p ps invs` holds when `ps` and `invs` have the same length and, for every `i`,
`invs[i]` lists the inverses mod `p` of the denominators of the coefficients of `ps[i]`
(`ratsInvOk`). -/
def polysInvOk (p : Int) (ps : List (List ((Int × Int) × List Nat))) (invs : List (List Int)) :
    Bool :=
  match ps, invs with
  | [], [] => true
  | q :: ps', i :: invs' => ratsInvOk p (termCoeffs q) i && polysInvOk p ps' invs'
  | _, _ => false
termination_by structural ps

/-- `familyRowMod p sigmaM csM ess points` is `[σ(q(v)) mod p for v in points]`, where `σ` has
the coefficients `sigmaM` and `q` the coefficients `csM` and exponents `ess`, all mod `p`, and
every point `v` is reduced mod `p` first. -/
def familyRowMod (p : Int) (sigmaM csM : List Int) (ess : List (List Nat))
    (points : List (List Int)) : List Int :=
  match points with
  | [] => []
  | v :: points' =>
    (horner (arithMod p) sigmaM (polyEval (arithMod p) csM ess (intsMod p v))) ::
      familyRowMod p sigmaM csM ess points'
termination_by structural points

/-- `onesRow n` is the row `[1, ..., 1]` of length `n`. -/
def onesRow (n : Nat) : List Int :=
  match n with
  | 0 => []
  | n' + 1 => 1 :: onesRow n'
termination_by structural n

/-- `familyRowsMod p sigmaM ps invs points` is `[familyRowMod p sigmaM (ratsMod p (termCoeffs q)
i) (termExps q) points]` for `(q, i)` in `ps` and `invs`, over the shorter of the two lists.
Lean-only helper of `familyMatrixMod` (the Python twin builds these rows by a comprehension
over `zip(ps, invs)` and then puts the row of ones in front when the family has biases). -/
def familyRowsMod (p : Int) (sigmaM : List Int) (ps : List (List ((Int × Int) × List Nat)))
    (invs : List (List Int)) (points : List (List Int)) : List (List Int) :=
  match ps, invs with
  | q :: ps', i :: invs' =>
    (familyRowMod p sigmaM (ratsMod p (termCoeffs q) i) (termExps q) points) ::
      familyRowsMod p sigmaM ps' invs' points
  | _, _ => []
termination_by structural ps

/-- `familyMatrixMod p bias sigmaM ps invs points` is the matrix `M[i][j] = σ(p_i(v_j)) mod p`
(coefficients of `p_i` reduced with the inverses `invs[i]`); with biases the row of the constant
function `1` comes first. -/
def familyMatrixMod (p : Int) (bias : Bool) (sigmaM : List Int)
    (ps : List (List ((Int × Int) × List Nat))) (invs : List (List Int))
    (points : List (List Int)) : List (List Int) :=
  let rows := familyRowsMod p sigmaM ps invs points
  cond bias ((onesRow points.length) :: rows) rows

/-- A composition-independence instance: the functions `σ(p_1), ..., σ(p_k)` of
`ℚ[x_1, ..., x_nvars]` (after the constant `1` when `bias`), with `polys` the `p_i` as term
lists and `sigma` the coefficients of `σ`, constant term first. Python twin: the dataclass
`CompindInstance`. -/
structure CompindInstance where
  nvars : Nat
  polys : List (List ((Int × Int) × List Nat))
  sigma : List (Int × Int)
  bias : Bool

/-- The witness of independence: a prime `p`, the inverses mod `p` of the denominators of the
coefficients of every `p_i` and of `σ`, `k` integer points `v_j`, and the inverse mod `p` of the
matrix `M[i][j] = f_i(v_j)`. Python twin: the dataclass `IndepWitness`. -/
structure IndepWitness where
  p : Int
  polysInv : List (List Int)
  sigmaInv : List Int
  points : List (List Int)
  inv : List (List Int)

/-- `familySize inst` is the number of functions of the family: one per polynomial, plus the
constant `1` when the family has biases. -/
def familySize (inst : CompindInstance) : Nat :=
  inst.polys.length + cond inst.bias 1 0

/-- `checkIndependent inst w k` holds when the `k` functions of the family are linearly
independent over `ℚ`: the instance is well formed, the denominators are invertible mod `w.p`,
and the matrix `M[i][j] = f_i(w.points[j]) mod w.p`, recomputed here from the instance, has the
inverse `w.inv` mod `w.p` (a relation `c^T M = 0` over `ℚ` would give one mod `p`). -/
def checkIndependent (inst : CompindInstance) (w : IndepWitness) (k : Nat) : Bool :=
  Nat.beq k (familySize inst) &&
  polysOk inst.nvars inst.polys &&
  pOk w.p &&
  polysInvOk w.p inst.polys w.polysInv &&
  ratsInvOk w.p inst.sigma w.sigmaInv &&
  Nat.beq w.points.length k &&
  rowsLen inst.nvars w.points &&
  checkInverse w.p k
    (familyMatrixMod w.p inst.bias (ratsMod w.p inst.sigma w.sigmaInv) inst.polys w.polysInv
      w.points)
    w.inv

/-- `expsAdd a b` is the entrywise sum of the exponent vectors `a` and `b` (the exponents of
the product of two monomials), over the shorter of the two lists. -/
def expsAdd (a b : List Nat) : List Nat :=
  match a, b with
  | x :: a', y :: b' => (x + y) :: expsAdd a' b'
  | _, _ => []
termination_by structural a

/-- `expsEq a b` holds when the exponent vectors `a` and `b` are equal: same length, same
entries. -/
def expsEq (a b : List Nat) : Bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => Nat.beq x y && expsEq a' b'
  | _, _ => false
termination_by structural a

/-- `termMul s t` is the product of the terms `s` and `t`: coefficient `s.1 * t.1` (exact, with
`arithQ`), exponents `expsAdd s.2 t.2`. -/
def termMul (s t : (Int × Int) × List Nat) : (Int × Int) × List Nat :=
  (arithQ.mul s.1 t.1, expsAdd s.2 t.2)

/-- `termsScale t q` is the product `t * q` of the term `t` and the term list `q`, term by term
(`[termMul t u for u in q]`, in the order of `q`). -/
def termsScale (t : (Int × Int) × List Nat) (q : List ((Int × Int) × List Nat)) :
    List ((Int × Int) × List Nat) :=
  match q with
  | [] => []
  | u :: q' => (termMul t u) :: termsScale t q'
termination_by structural q

/-- `polyMulT p q` is the product `p * q` as the list of all pairwise term products, not yet
normalised: `termsScale t q` for each term `t` of `p`, in order, concatenated. -/
def polyMulT (p q : List ((Int × Int) × List Nat)) : List ((Int × Int) × List Nat) :=
  match p with
  | [] => []
  | t :: p' => termsScale t q ++ polyMulT p' q
termination_by structural p

/-- `addTerm t acc` adds the term `t` into the term list `acc`: the first term `u` of `acc` whose
exponents equal those of `t` becomes `(u.1 + t.1, u.2)` (exact, with `arithQ`, `u` first) and
the rest of `acc` is kept as it is; when there is no such term, `t` is appended at the end. -/
def addTerm (t : (Int × Int) × List Nat) (acc : List ((Int × Int) × List Nat)) :
    List ((Int × Int) × List Nat) :=
  match acc with
  | [] => [t]
  | u :: acc' =>
    cond (expsEq u.2 t.2) ((arithQ.add u.1 t.1, u.2) :: acc') (u :: addTerm t acc')
termination_by structural acc

/-- `normalize ts` is the term list `ts` with like terms combined (one term per exponent vector,
coefficients summed exactly, zero coefficients kept), folding from the right:
`normalize (t :: ts') = addTerm t (normalize ts')`. -/
def normalize (ts : List ((Int × Int) × List Nat)) : List ((Int × Int) × List Nat) :=
  match ts with
  | [] => []
  | t :: ts' => addTerm t (normalize ts')
termination_by structural ts

/-- `zeroExps n` is the exponent vector `[0, ..., 0]` of length `n` (the constant monomial). -/
def zeroExps (n : Nat) : List Nat :=
  match n with
  | 0 => []
  | n' + 1 => 0 :: zeroExps n'
termination_by structural n

/-- `constTerm c nvars` is the constant term `c` of a polynomial in `nvars` variables: the
coefficient `c` with the exponents `zeroExps nvars`. -/
def constTerm (c : Int × Int) (nvars : Nat) : (Int × Int) × List Nat :=
  (c, zeroExps nvars)

/-- `composeT nvars sigma p` is the term list of the composition `σ(p)` for
`σ(z) = Σ_k sigma[k] z^k`, by Horner's scheme with like terms combined at every step:
`σ(p) = normalize (c_0 :: p * (c_1 + p * (c_2 + ...)))`, the empty `σ` giving no terms. -/
def composeT (nvars : Nat) (sigma : List (Int × Int)) (p : List ((Int × Int) × List Nat)) :
    List ((Int × Int) × List Nat) :=
  match sigma with
  | [] => []
  | c :: sigma' => normalize ((constTerm c nvars) :: polyMulT p (composeT nvars sigma' p))
termination_by structural sigma

/-- `qint c` is the integer `c` as the rational pair `(c, 1)`. Placed here, before its first
user `scaledCompositions`; the Python twin defines it further down, after
`checkDependentAll`. -/
def qint (c : Int) : Int × Int :=
  (c, 1)

/-- `scaledCompositions nvars sigma ps lams` is `Σ_i lams[i] * σ(ps[i])` as a term list, not
normalised across `i`: for each `i` (over the shorter of `ps` and `lams`), the terms of
`composeT nvars sigma ps[i]` multiplied by the constant `lams[i]`, concatenated in order. -/
def scaledCompositions (nvars : Nat) (sigma : List (Int × Int))
    (ps : List (List ((Int × Int) × List Nat))) (lams : List Int) :
    List ((Int × Int) × List Nat) :=
  match ps, lams with
  | q :: ps', lam :: lams' =>
    termsScale (constTerm (qint lam) nvars) (composeT nvars sigma q) ++
      scaledCompositions nvars sigma ps' lams'
  | _, _ => []
termination_by structural ps

/-- `relationPoly inst lam` is the term list, like terms combined, of `Σ_i lam[i] * f_i` for the
functions `f_i` of the family: with biases `f_0 = 1`, so `lam`'s head is the coefficient of the
constant and its tail scales `σ(p_1), σ(p_2), ...` (no terms at all when `lam` is empty);
without biases `lam` scales `σ(p_1), σ(p_2), ...` directly. -/
def relationPoly (inst : CompindInstance) (lam : List Int) : List ((Int × Int) × List Nat) :=
  match inst.bias, lam with
  | true, [] => []
  | true, l0 :: lam' =>
    normalize
      ((constTerm (qint l0) inst.nvars) ::
        scaledCompositions inst.nvars inst.sigma inst.polys lam')
  | false, _ => normalize (scaledCompositions inst.nvars inst.sigma inst.polys lam)

/-- `allZeroTerms ts` holds when every term of `ts` has numerator `0` (a zero coefficient, its
denominator being positive). -/
def allZeroTerms (ts : List ((Int × Int) × List Nat)) : Bool :=
  match ts with
  | [] => true
  | t :: ts' => decide (t.1.1 = 0) && allZeroTerms ts'
termination_by structural ts

/-- `nonzeroInt lam` holds when some entry of `lam` is not `0`. -/
def nonzeroInt (lam : List Int) : Bool :=
  match lam with
  | [] => false
  | v :: lam' => !(decide (v = 0)) || nonzeroInt lam'
termination_by structural lam

/-- `checkDependent inst lam` holds when `lam ≠ 0` has one entry per function of the family, the
instance is well formed (exponent vectors of length `nvars`, positive denominators), and
`Σ_i lam[i] * f_i = 0` identically: every coefficient of the expanded relation
`relationPoly inst lam` (exact rational arithmetic, like terms combined) is zero. -/
def checkDependent (inst : CompindInstance) (lam : List Int) : Bool :=
  Nat.beq lam.length (familySize inst) &&
  nonzeroInt lam &&
  polysOk inst.nvars inst.polys &&
  ratsPos inst.sigma &&
  allZeroTerms (relationPoly inst lam)

/-- `unitSigma j` is the coefficient list of `z^j`: `j` zeros `(0, 1)`, then `(1, 1)`. -/
def unitSigma (j : Nat) : List (Int × Int) :=
  match j with
  | 0 => [(1, 1)]
  | j' + 1 => (0, 1) :: unitSigma j'
termination_by structural j

/-- `dependentFrom inst lam j count` holds when `checkDependent` accepts `lam` for the family
without biases of `inst.polys` under `σ = z^j, z^(j+1), ..., z^(j+count-1)`. Lean-only helper
of `checkDependentAll` (the Python twin's `all(...)` over `range(lo, d + 1)`, a loop of
`d + 1 - lo` steps, becomes structural recursion on that count). -/
def dependentFrom (inst : CompindInstance) (lam : List Int) (j count : Nat) : Bool :=
  match count with
  | 0 => true
  | count' + 1 =>
    checkDependent
      { nvars := inst.nvars, polys := inst.polys, sigma := unitSigma j, bias := false } lam &&
    dependentFrom inst lam (j + 1) count'
termination_by structural count

/-- `checkDependentAll inst lam lo d` holds when the family has no biases, `lo ≤ d`, the
polynomials are well formed, `lam` is nonzero with one entry per polynomial, and
`Σ_i lam[i] * p_i^j = 0` identically for every `j = lo, ..., d`: then the relation holds for
every `σ = Σ_{j=lo}^{d} a_j z^j` (generic dependence in degree `d`; `lo = 1` for activations
through the origin). -/
def checkDependentAll (inst : CompindInstance) (lam : List Int) (lo d : Nat) : Bool :=
  !(inst.bias) &&
  Nat.ble lo d &&
  polysOk inst.nvars inst.polys &&
  Nat.beq lam.length inst.polys.length &&
  nonzeroInt lam &&
  dependentFrom inst lam lo (d + 1 - lo)

/-- `nsub a b` is the natural-number subtraction `a - b`, truncated at `0` (`Nat.sub`). -/
def nsub (a b : Nat) : Nat :=
  a - b

/-- `qmul3 a b c` is the product `a * (b * c)` of rational pairs. Placed here, before its first
user `delta2`; the Python twin defines it after `delta3`. -/
def qmul3 (a b c : Int × Int) : Int × Int :=
  arithQ.mul a (arithQ.mul b c)

/-- `delta2 sigma` is `Δ_2 = 2 r a_r a_(r-2) - (r-1) a_(r-1)^2` (Prop. 2.1) for
`σ = Σ_k a_k z^k`, `r = sigma.length - 1`; indices below `0` are truncated to `0` (`nsub`). -/
def delta2 (sigma : List (Int × Int)) : Int × Int :=
  let r := nsub sigma.length 1
  let ar := nthQ sigma r
  let ar1 := nthQ sigma (nsub r 1)
  let ar2 := nthQ sigma (nsub r 2)
  let t1 := qmul3 (qint (Int.ofNat (2 * r))) ar ar2
  let t2 := qmul3 (qint (Int.ofNat (nsub r 1))) ar1 ar1
  arithQ.add t1 (qneg t2)

/-- `delta3 sigma` is `Δ_3 = 3 r^2 a_r^2 a_(r-3) - 3 r (r-2) a_r a_(r-1) a_(r-2)
+ (r-1)(r-2) a_(r-1)^3` (Prop. 2.1), `r = sigma.length - 1`, with `nsub` for every `r - i`. -/
def delta3 (sigma : List (Int × Int)) : Int × Int :=
  let r := nsub sigma.length 1
  let ar := nthQ sigma r
  let ar1 := nthQ sigma (nsub r 1)
  let ar2 := nthQ sigma (nsub r 2)
  let ar3 := nthQ sigma (nsub r 3)
  let t1 := qmul3 (qint (Int.ofNat (3 * r * r))) (arithQ.mul ar ar) ar3
  let t2 := qmul3 (qint (Int.ofNat (3 * r * nsub r 2))) (arithQ.mul ar ar1) ar2
  let t3 := qmul3 (qint (Int.ofNat (nsub r 1 * nsub r 2))) (arithQ.mul ar1 ar1) ar1
  arithQ.add (arithQ.add t1 (qneg t2)) t3

/-- `checkProp21 sigma d2 d3` holds when `σ` has degree `r = sigma.length - 1 ≥ 3`, leading
coefficient `a_r ≠ 0`, `Δ_2 = d2 ≠ 0` and `Δ_3 = d3 ≠ 0` (the hypotheses of Prop. 2.1), all
denominators positive. -/
def checkProp21 (sigma : List (Int × Int)) (d2 d3 : Int × Int) : Bool :=
  let r := nsub sigma.length 1
  ratsPos sigma &&
  ratsPos [d2, d3] &&
  Nat.ble 3 r &&
  nonzeroQ (nthQ sigma r) &&
  qeq (delta2 sigma) d2 &&
  qeq (delta3 sigma) d3 &&
  nonzeroQ d2 &&
  nonzeroQ d3

/-- `checkProp33 sigma` holds in the case of activations through the origin (Prop. 3.3): `σ` has
degree `r = sigma.length - 1 ≥ 2`, `σ(0) = a_0 = 0`, and `a_r * a_(r-1) ≠ 0`, all denominators
positive. -/
def checkProp33 (sigma : List (Int × Int)) : Bool :=
  let r := nsub sigma.length 1
  ratsPos sigma &&
  Nat.ble 2 r &&
  !(nonzeroQ (nthQ sigma 0)) &&
  nonzeroQ (nthQ sigma r) &&
  nonzeroQ (nthQ sigma (nsub r 1))

/-! MLP identifiability (§4): the hypotheses on the network, not only on `σ`. -/

/-- `chunkRows ncols nrows th` is `nrows` rows of `ncols` entries each, read from the front of
`th` (`th[0 : ncols]`, `th[ncols : 2 ncols]`, ...; rows come out short, then empty, when `th`
runs out). -/
def chunkRows (ncols nrows : Nat) (th : List Int) : List (List Int) :=
  match nrows with
  | 0 => []
  | nrows' + 1 => (takeN ncols th) :: chunkRows ncols nrows' (dropN ncols th)
termination_by structural nrows

/-- `splitLayers prev rest th` is the list of weight matrices (lists of rows) of a bias-free MLP
whose layers after one of width `prev` have the widths `rest`: layer `l` takes
`rest[l] * rest[l-1]` entries of `th` as `rest[l]` rows of `rest[l-1]` weights. -/
def splitLayers (prev : Nat) (rest : List Nat) (th : List Int) : List (List (List Int)) :=
  match rest with
  | [] => []
  | d :: rest' => (chunkRows prev d th) :: splitLayers d rest' (dropN (d * prev) th)
termination_by structural rest

/-- `isZeroRow row` holds when every entry of `row` is `0` (`allZero`). -/
def isZeroRow (row : List Int) : Bool :=
  allZero row

/-- `anyZeroRow W` holds when some row of `W` is zero. -/
def anyZeroRow (W : List (List Int)) : Bool :=
  match W with
  | [] => false
  | r :: W' => isZeroRow r || anyZeroRow W'
termination_by structural W

/-- `column W j` is the column `j` of `W`: `[nth r j for r in W]`, entries past the end of a
row read as `0`. -/
def column (W : List (List Int)) (j : Nat) : List Int :=
  match W with
  | [] => []
  | r :: W' => (nth r j) :: column W' j
termination_by structural W

/-- `anyZeroColFrom W j count` holds when one of the columns `j, j + 1, ..., j + count - 1` of
`W` is zero. Lean-only helper of `anyZeroCol` (the Python twin's `any(...)` over
`range(ncols)` becomes structural recursion on the number of columns left). -/
def anyZeroColFrom (W : List (List Int)) (j count : Nat) : Bool :=
  match count with
  | 0 => false
  | count' + 1 => isZeroRow (column W j) || anyZeroColFrom W (j + 1) count'
termination_by structural count

/-- `anyZeroCol W ncols` holds when one of the columns `0, ..., ncols - 1` of `W` is zero
(entries past the end of a row read as `0`). -/
def anyZeroCol (W : List (List Int)) (ncols : Nat) : Bool :=
  anyZeroColFrom W 0 ncols

/-- `rowIn row W` holds when some row of `W` equals `row`. -/
def rowIn (row : List Int) (W : List (List Int)) : Bool :=
  match W with
  | [] => false
  | r :: W' => zlistEq r row || rowIn row W'
termination_by structural W

/-- `anyDupRow W` holds when two rows of `W` (at different positions) are equal: some row
occurs again after itself. -/
def anyDupRow (W : List (List Int)) : Bool :=
  match W with
  | [] => false
  | r :: W' => rowIn r W' || anyDupRow W'
termination_by structural W

/-- `hiddenOkFrom W1 Ws` holds when, for every pair of consecutive weight matrices in
`W1 :: Ws`, the first has no zero row and no two equal rows, and the second has no zero column
among the first's rows. Lean-only helper of `hiddenOk` (the Python twin loops over
`zip(Ws, Ws[1:])`; here the previous matrix is carried along). -/
def hiddenOkFrom (W1 : List (List Int)) (Ws : List (List (List Int))) : Bool :=
  match Ws with
  | [] => true
  | W2 :: Ws' =>
    !(anyZeroRow W1) && !(anyDupRow W1) && !(anyZeroCol W2 W1.length) && hiddenOkFrom W2 Ws'
termination_by structural Ws

/-- `hiddenOk Ws` holds when every hidden layer's neurons are active (nonzero incoming row,
nonzero outgoing column) and not redundant (no two equal incoming rows), for the weight
matrices `Ws` of consecutive layers. -/
def hiddenOk (Ws : List (List (List Int))) : Bool :=
  match Ws with
  | [] => true
  | W1 :: Ws' => hiddenOkFrom W1 Ws'

/-- `checkNotSubnetwork widths th` holds when the bias-free MLP with layer widths `widths` and
integer weights `th` has at least one hidden layer, positive widths, as many weights as its
shape needs, and no inactive or redundant hidden neuron (it is not a subnetwork). -/
def checkNotSubnetwork (widths : List Nat) (th : List Int) : Bool :=
  Nat.ble 3 widths.length &&
  allPos widths &&
  Nat.beq th.length (nParams widths false) &&
  hiddenOk (splitLayers (firstWidth widths) (dropN 1 widths) th)

/-- `checkMlpHypotheses widths sigma th rmin` holds when the MLP is not a subnetwork
(`checkNotSubnetwork`), `σ(0) = 0`, and `σ` has degree `r = sigma.length - 1 ≥ rmin` with a
nonzero leading coefficient, all denominators positive. -/
def checkMlpHypotheses (widths : List Nat) (sigma : List (Int × Int)) (th : List Int)
    (rmin : Nat) : Bool :=
  let r := nsub sigma.length 1
  checkNotSubnetwork widths th &&
  ratsPos sigma &&
  !(nonzeroQ (nthQ sigma 0)) &&
  nonzeroQ (nthQ sigma r) &&
  Nat.ble rmin r

end NNCert
