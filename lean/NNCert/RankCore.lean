/-
NNCert.RankCore: the rank core shared by every family (polynomial MLPs, ResNets, ReLU networks).
Python twin: certify/checker/rank_core.py (NNCert/RankCore); Coq twin: coq/NNCert/RankCore.v.
Same names (camelCase here), same order; `minorRows` reads the `Nat` residues with `nthNat`
(NNCert.Lists: the Python twin's `nth` on residues).

A family supplies the Jacobian rows it computes from its literal instance; the core decides
the two facts a rank certificate needs:
- lower bound: for row labels `R = ((s, k), ...)` and columns `C`, `|R| = |C| = r`, the `r × r`
  minor `J[R, C] mod p` is nonsingular, decided here by fraction-free Gaussian elimination mod
  `p` (`nonsingularMod`): no inverse is shipped, the certificate carries `O(r)` indices, and
  `det J[R, C] ≢ 0 (mod p)` gives `det J[R, C] ≠ 0` over `ℚ`, so `rank_ℚ J ≥ r`. (`true`
  is sound for any modulus: one step maps `M` to `N` with `a^(k-2) det M = det N` (Chiò's
  condensation, an identity over every commutative ring), so `det M ≡ 0` stays `0` down to the
  last `1 × 1` entry and no pivot is found there; primality of `p` is needed only so that a
  nonsingular minor is always accepted);
- upper bound at `θ` (independence part, `independentMod`): `s` integer tangents whose `s × s`
  minor on the columns `C` is nonsingular mod `p` are linearly independent over `ℚ`;
- exactness from residues (`moduliOk`, `killsMod`, `killBound`): an integer `v` with `|v| ≤ B`
  that is `0` modulo pairwise coprime moduli `q_1, …, q_m` with `q_1 ⋯ q_m > B` is `0`.

Residues: the families compute rows over `arithMod p : Arith Int` (values in `[0, p)`);
`reduceMod` turns them into `Nat` (`Int.toNat (x % p)`), and the hot loops (`elimTail`,
`dotMod`) run on `Nat`, whose `+ * - %` and `Nat.beq` the kernel evaluates by GMP on literals
(lean4 `src/kernel/type_checker.cpp`, `reduce_nat`: `Nat.add/sub/mul/div/mod/gcd/beq/ble`);
`Int` has no such shortcut (it reduces by `match` on `ofNat`/`negSucc` down to `Nat`). `p - b`
is truncated subtraction on `Nat`; on the checking path `b < p` always (every entry is a
residue), so it is the Python twin's `p - b`.

Core names used here and where they were checked (leanprover/lean4 sources, stored versions):
`List.headD` (`[], d => d | a :: _, _ => a`), `List.all` (`[], _ => true | h :: t, p =>
p h && all t p`, structural), `List.isEmpty`, `List.map`, `List.foldr` (`| [] => init |
a :: l => f a (foldr f init l)`): `src/Init/Data/List/Basic.lean`; `Int.toNat` (`ofNat n => n
| negSucc _ => 0`) and `Int.natAbs`: `src/Init/Data/Int/Basic.lean`; `Nat.gcd` (defined
by well-founded recursion but "overridden in both the kernel and the compiler", so on literals
it reduces by GMP and is never unfolded): `src/Init/Data/Nat/Gcd.lean` and
`src/kernel/type_checker.cpp` (`if (f == *g_nat_gcd) return reduce_bin_nat_op(nat_gcd, e)`);
`Option` (`none`/`some`) and `Nat.beq`/`Nat.blt`: `src/Init/Prelude.lean`, already used by
NNCert.Lists. `%` on `Int` is `Int.emod` (NNCert.Arith).

COST MODEL of `decide +kernel` on a rank certificate (an estimate, not a measurement: no Lean
toolchain was available). The kernel evaluates `decide (check … = true)` by `whnf` with no VM:
every unfolding, `match`/`casesOn` on a list cell or a `Bool`, structure projection (`ar.mul`,
`w.p`) and primitive `Nat` operation on literals is one reduction step, and `whnf` results are
cached by expression (`m_whnf` in `type_checker.cpp`), so a shared subterm (`let th := …`) is
evaluated once. Steps, with `r` the minor size (= `|R|`, one row per label), `n` the number of
parameters, `s` the number of tangents, `L` the lattice size (batch size for ReLU), `d` the
output width and `m` the number of moduli (`m = 0`: exact rational rows):

    steps ≈ c_e (r³ + s³) / 3            elimination (`elimTail` entries, Σ_k k²)
          + c_c (r² + s²) n / 2          reading the minors (`nthNat` walks a row of length n)
          + c_r r n                      the r rows, one reverse pass each, and `reduceMod`
          + L d (c_r n + c_d s n) P      the upper bound: rows on the lattice, `killsMod` dots
          + [m ≥ 1] d (c_r n + c_d s n)  the bound pass (`arithZ` rows, `killBound`)

with `P = m` passes when `m ≥ 1` and `P = q_Q` (exact rational pairs, growing numerators) when
`m = 0`; the upper-bound terms vanish when `s = 0` (lazy evaluation never forces a row that no
tangent is dotted with). Constants (best estimates): `c_e = 20` steps per elimination entry
(two `Nat.mul`, `Nat.sub`, `Nat.add`, `Nat.mod`, the two-list match and the `HMul`/`HAdd`
instance unfoldings), `c_c = 3` per skipped cell, `c_r = 120` per (row, parameter) (about three
`Int` multiply-adds mod `p` through `arithMod`, each an `Int` match onto GMP `Nat`, plus
`takeN`/`dropN` copies), `c_d = 25` per `dotMod` term, `q_Q = 4`. Rate: about 10⁶ steps per
second, i.e. 10–50 µs per list multiply-add, consistent with the only kernel timings found in
stored sources (lean-guide.md A2.9, from kim-em/hex-dev `SPEC/matrix-tactics.md`: a list-based,
structural rank check of a 40 × 40 matrix (about 40³ multiply-adds by our count) in
0.57–0.90 s; a 32 × 32 determinant check in 1.55 s). Examples: r = 101, n = 120, lower only:
≈ 1.0 · 10⁷ steps ≈ 10 s; r = 335, n = 410 (widths 10, 20, 10, 1, t²): ≈ 3.4 · 10⁸ steps ≈ 5.6 min, dominated by the
elimination (250 s); its upper bound (s = 75, L = 1001, d = 1, m = 2) adds ≈ 1.6 · 10⁹ steps
(≈ 27 min); with n ≈ r the 600 s budget is reached near r = 400, and r = 1 000 needs ≈ 2.3 h.
The Python function `certify.lean_cost.lean_rank_cost` computes the same model in
seconds; `DEFAULT_LEAN_MAX_SECONDS = 600` there. Not modelled: memory (the `whnf` cache keeps
every intermediate result, so memory grows with the step count and may bind before time does
beyond ~10⁸ steps), `maxRecDepth` (recursion depth stays at most the longest list, well below
the 16 × 100 000 the templates allow), and elaboration of the literals (linear in their size).
-/
import NNCert.Lists
import NNCert.Arith

namespace NNCert

/-! Elimination mod `p`. -/

/-- `elimTail p a b pt rt` is `[(a * y + (p - b) * x) % p]` for the entries `x` of `pt` and `y`
of `rt` (over the shorter list): the row `b :: rt` after the elimination step
`a • row - b • pivot` (pivot `a :: pt`), without its first entry, which is `0`. -/
def elimTail (p a b : Nat) (pt rt : List Nat) : List Nat :=
  match pt, rt with
  | x :: pt', y :: rt' => ((a * y + (p - b) * x) % p) :: elimTail p a b pt' rt'
  | _, _ => []
termination_by structural pt

/-- `elimRow p piv row` eliminates the first column of `row` with the pivot row `piv` (both
nonempty; `[]` otherwise); the result is one entry shorter. Multiplying a row by the unit
`a = piv[0]` keeps the rank. -/
def elimRow (p : Nat) (piv row : List Nat) : List Nat :=
  match piv, row with
  | a :: pt, b :: rt => elimTail p a b pt rt
  | _, _ => []

/-- `leadNonzero row` holds when the first entry of `row` is nonzero (an empty row counts as
starting with `0`: `headD 0`). -/
def leadNonzero (row : List Nat) : Bool :=
  !(Nat.beq (row.headD 0) 0)

/-- `pickPivot rows` is `some (the first row whose first entry is nonzero, the other rows in
order)`, or `none` when every row starts with `0`. -/
def pickPivot (rows : List (List Nat)) : Option (List Nat × List (List Nat)) :=
  match rows with
  | [] => none
  | row :: rows' =>
    cond (leadNonzero row) (some (row, rows'))
      (match pickPivot rows' with
        | none => none
        | some (piv, rest) => some (piv, row :: rest))
termination_by structural rows

/-- `nonsingularMod p fuel M` holds when `M` (entries in `[0, p)`, `fuel` rows of `fuel`
entries) is nonsingular mod `p`: each step finds a pivot in the first column and eliminates it
from the other rows, which leaves a `(fuel - 1) × (fuel - 1)` matrix that is nonsingular iff
`M` is; with `p` prime the residues form a field, so a column without a pivot means
`det M ≡ 0 (mod p)`. After `fuel` steps no row may be left. -/
def nonsingularMod (p fuel : Nat) (M : List (List Nat)) : Bool :=
  match fuel with
  | 0 => M.isEmpty
  | f + 1 =>
    match pickPivot M with
    | none => false
    | some (piv, rest) => nonsingularMod p f (rest.map (fun row => elimRow p piv row))
termination_by structural fuel

/-! Two columns per pass: the rows of two consecutive steps of `nonsingularMod` in one walk
over each row (about half the list cells; Coq: ElimSound.v `nonsingular2_mod_eq` proves the
two deciders equal). -/

/-- `elim2Tail p A B C pt qt rt` is `[((A * y + B * x) % p + C * q) % p]` for the entries `x`
of `pt`, `q` of `qt` and `y` of `rt` (over the shortest list). -/
def elim2Tail (p A B C : Nat) (pt qt rt : List Nat) : List Nat :=
  match pt, qt, rt with
  | x :: pt', q :: qt', y :: rt' =>
    (((A * y + B * x) % p + C * q) % p) :: elim2Tail p A B C pt' qt' rt'
  | _, _, _ => []
termination_by structural pt

/-- `elim2Row p piv piv2 row` is `elimRow p piv2 (elimRow p piv row)` in one pass: with
`piv = a :: x0 :: pt`, `piv2 = d :: qt` and `row = b :: y0 :: rt`, the first step gives
`e :: (a rt - b pt)` with `e = a y0 - b x0`, the second `(d a) rt + (d (p - b)) pt + (p - e) qt`
mod `p`; `[]` when a row is too short. -/
def elim2Row (p : Nat) (piv piv2 row : List Nat) : List Nat :=
  match piv, piv2, row with
  | a :: x0 :: pt, d :: qt, b :: y0 :: rt =>
    let nb := p - b
    let e := (a * y0 + nb * x0) % p
    elim2Tail p ((d * a) % p) ((d * nb) % p) (p - e) pt qt rt
  | _, _, _ => []

/-- `pickPivot2 p piv rows` is `(elimRow p piv row, the other rows in order)` for the first
`row` whose eliminated row has a nonzero first entry, or `none`: `pickPivot` on the eliminated
rows without eliminating the others. -/
def pickPivot2 (p : Nat) (piv : List Nat) (rows : List (List Nat)) :
    Option (List Nat × List (List Nat)) :=
  match rows with
  | [] => none
  | row :: rows' =>
    let e := elimRow p piv row
    cond (leadNonzero e) (some (e, rows'))
      (match pickPivot2 p piv rows' with
        | none => none
        | some (q, rest) => some (q, row :: rest))
termination_by structural rows

/-- `nonsingular2Mod p fuel M` is `nonsingularMod p fuel M`, two steps per pass while
`fuel ≥ 2`. -/
def nonsingular2Mod (p fuel : Nat) (M : List (List Nat)) : Bool :=
  match fuel with
  | f + 2 =>
    match pickPivot M with
    | none => false
    | some (piv, rest) =>
      match pickPivot2 p piv rest with
      | none => false
      | some (piv2, rest2) =>
        nonsingular2Mod p f (rest2.map (fun row => elim2Row p piv piv2 row))
  | f => nonsingularMod p f M
termination_by structural fuel

/-- `minorRows rows cols` is the columns `cols` of every row of `rows` (`0` past the end of a
row): the minor `rows[:, cols]`. -/
def minorRows (rows : List (List Nat)) (cols : List Nat) : List (List Nat) :=
  rows.map (fun row => cols.map (fun c => nthNat row c))

/-- `gapCols b gaps` is the strictly increasing columns `c₀ = g₀ + b`, `cᵢ₊₁ = gᵢ₊₁ + cᵢ + 1` of
the gaps `g` (the number of columns skipped before each). -/
def gapCols (b : Nat) (gaps : List Nat) : List Nat :=
  match gaps with
  | [] => []
  | g :: gs => (g + b) :: gapCols (g + b + 1) gs
termination_by structural gaps

/-- `colGaps b cols` is the gaps of strictly increasing columns, all `≥ b` (`gapCols b`
inverts it), or `none` for columns out of order. -/
def colGaps (b : Nat) (cols : List Nat) : Option (List Nat) :=
  match cols with
  | [] => some []
  | c :: cs =>
    match Nat.ble b c, colGaps (c + 1) cs with
    | true, some gs => some ((c - b) :: gs)
    | _, _ => none
termination_by structural cols

/-- `selGaps row gaps` is the entries of `row` at the columns `gapCols 0 gaps` (`0` past its
end), in one walk: skip `g` entries (`dropN`, NNCert.Lists), take the next, go on from the one
after. -/
def selGaps (row : List Nat) (gaps : List Nat) : List Nat :=
  match gaps with
  | [] => []
  | g :: gs =>
    match dropN g row with
    | x :: rest => x :: selGaps rest gs
    | rest => 0 :: selGaps rest gs
termination_by structural gaps

/-- `selectMinor rows cols` is `minorRows rows cols`, by one walk per row (`selGaps`) when the
columns are strictly increasing (Coq: ElimSound.v `select_minor_eq` proves the two equal). -/
def selectMinor (rows : List (List Nat)) (cols : List Nat) : List (List Nat) :=
  match colGaps 0 cols with
  | some gaps => rows.map (fun row => selGaps row gaps)
  | none => minorRows rows cols

/-- `reduceMod p rows` is every integer entry of `rows` reduced into `[0, p)` (`x % p`, which is
`Int.emod`), as a natural number (`Int.toNat`, exact on `[0, p)` when `p > 0`). -/
def reduceMod (p : Int) (rows : List (List Int)) : List (List Nat) :=
  rows.map (fun row => row.map (fun x => Int.toNat (x % p)))

/-- `checkMinor p n r rows cols` holds when there are `r` rows (residues mod `p` of Jacobian rows
of length `n`), `r` columns below `n`, and the `r × r` minor on those columns is nonsingular mod
`p`: then the rows have rank `≥ r`. (Meaningful for `p > 0`; both callers check `pOk p`
first.) -/
def checkMinor (p : Int) (n r : Nat) (rows : List (List Int)) (cols : List Nat) : Bool :=
  Nat.beq rows.length r &&
  Nat.beq cols.length r &&
  allLt n cols &&
  nonsingular2Mod p.toNat r (selectMinor (reduceMod p rows) cols)

/-- `rowsInRange m dout rows` holds when every row label `(s, k)` of `rows` names a sample
`s < m` and an output coordinate `k < dout`. -/
def rowsInRange (m dout : Nat) (rows : List (Nat × Nat)) : Bool :=
  match rows with
  | [] => true
  | (s, k) :: rows' => Nat.blt s m && Nat.blt k dout && rowsInRange m dout rows'
termination_by structural rows

/-- `checkRankCore p n nsamples dout labels rows cols r` is the lower-bound decision every family
shares: `p` usable, `r` labels `(sample, output)` in range, and the rows the family computed for
them (one per label, mod `p`) have an `r × r` minor on `cols` that is nonsingular mod `p`. Then
the Jacobian has rank `≥ r` over `ℚ`. -/
def checkRankCore (p : Int) (n nsamples dout : Nat) (labels : List (Nat × Nat))
    (rows : List (List Int)) (cols : List Nat) (r : Nat) : Bool :=
  pOk p &&
  Nat.beq labels.length r &&
  rowsInRange nsamples dout labels &&
  checkMinor p n r rows cols

/-- `independentMod p n ts cols` holds when the integer vectors `ts` (of length `n`) are
linearly independent over `ℚ`: their `s × s` minor on `cols` (`s = ts.length`) is nonsingular
mod `p`. -/
def independentMod (p : Int) (n : Nat) (ts : List (List Int)) (cols : List Nat) : Bool :=
  pOk p && checkMinor p n ts.length ts cols

/-! Exactness from residues. -/

/-- `coprimeToAll q qs` holds when `gcd(q, q') = 1` for every `q'` of `qs` (`Nat.gcd` of the
absolute values, as Python's `math.gcd`). -/
def coprimeToAll (q : Int) (qs : List Int) : Bool :=
  match qs with
  | [] => true
  | q' :: qs' => Nat.beq (Nat.gcd q.natAbs q'.natAbs) 1 && coprimeToAll q qs'
termination_by structural qs

/-- `moduliOk qs` holds when every modulus is usable (`1 < q < 2^31`) and the moduli are
pairwise coprime. -/
def moduliOk (qs : List Int) : Bool :=
  match qs with
  | [] => true
  | q :: qs' => pOk q && coprimeToAll q qs' && moduliOk qs'
termination_by structural qs

/-- `prodZ qs` is the product `q_1 ⋯ q_m` of the moduli (`1` for none). -/
def prodZ (qs : List Int) : Int :=
  match qs with
  | [] => 1
  | q :: qs' => q * prodZ qs'
termination_by structural qs

/-- `dotMod q xs ys` is `Σ_i xs[i] * ys[i] mod q` over the shorter length (entries in `[0, q)`),
reduced after every term; summed from the last term, the same residue as the Python twin's
left-to-right accumulation. -/
def dotMod (q : Nat) (xs ys : List Nat) : Nat :=
  match xs, ys with
  | x :: xs', y :: ys' => (x * y + dotMod q xs' ys') % q
  | _, _ => 0
termination_by structural xs

/-- `killsMod q rows tq` holds when every tangent of `tq` is orthogonal mod `q` to every row of
`rows` (rows already reduced mod `q`: `reduceMod` only turns them into `Nat`; the tangents
reduced once per modulus by the caller, not once per point). -/
def killsMod (q : Int) (rows : List (List Int)) (tq : List (List Nat)) : Bool :=
  (reduceMod q rows).all (fun row => tq.all (fun t => Nat.beq (dotMod q.toNat row t) 0))

/-- `absZ x` is `|x|`. -/
def absZ (x : Int) : Int :=
  cond (decide (x < 0)) (-x) x

/-- `weightedAbs bs t` is `Σ_i bs[i] * |t[i]|` over the shorter length: a bound on `|row · t|`
when `|row[i]| ≤ bs[i]` for every `i`. -/
def weightedAbs (bs t : List Int) : Int :=
  match bs, t with
  | b :: bs', x :: t' => b * absZ x + weightedAbs bs' t'
  | _, _ => 0
termination_by structural bs

/-- `maxZ a b` is the larger of `a` and `b` (`a` when they are equal). -/
def maxZ (a b : Int) : Int :=
  cond (decide (b ≤ a)) a b

/-- `killBound bounds ts` is the largest `weightedAbs bs t` over the bound rows `bs` of
`bounds` and the tangents `t` of `ts` (`0` when there are none): a bound on every `|row · t|`. -/
def killBound (bounds ts : List (List Int)) : Int :=
  bounds.foldr (fun bs acc => ts.foldr (fun t acc' => maxZ acc' (weightedAbs bs t)) acc) 0

end NNCert
