/-
NNCert.RankCore: the rank core shared by every family (polynomial MLPs, ResNets, ReLU networks).
Python twin: certify/checker/kernel/rank_core.py (NNCert/RankCore); Coq twin: coq/NNCert/kernel/RankCore.v.
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

COST MODEL of `decide +kernel` on a rank certificate: `certify/lean_cost.py`, described in
docs/lean-kernel.md (an estimate, not a measurement: no Lean toolchain was available). The unit
is one kernel reduction (delta, beta, iota, projection, or one GMP `Nat` primitive), and each
operation of this file is priced by counting its reductions here:
- `elim2Tail`, per entry (two columns of `nonsingular2Mod`'s pass): seven `Nat` operations
  written with `*`/`+`/`%`, each 5 reductions through its instance (`HMul.hMul`, `instHMul`,
  `Mul.mul`, `instMulNat`, then `Nat.mul`; the closed instances are cached after first use),
  plus one three-list cell of the structural recursion (unfold, `List.brecOn`, `List.rec`,
  beta, the `below` projections, the matcher, three `casesOn`, beta: 12) = 47 reductions, 9
  retained results; about `r³ / 6` entries; `elimTail` (the second pivot of each pass): five
  operations and a two-list cell (11) = 36;
- `dotMod`, per term: three `Nat` operations and one two-list cell = 26 reductions;
- `dropN` (NNCert.Lists), per cell `selGaps` walks: a two-scrutinee cell and the literal's
  `Nat.succ` view = 12 reductions; `selectMinor` walks each row once, `r n` cells;
- `reduceMod`, per entry: a `List.map` cell (10), beta, `Int` `%` (5 + `Int.emod` 6),
  `Int.toNat` (2) = 24 reductions;
- a (row, parameter) of a family's reverse pass through `arithMod` (NNCert.Arith, NNCert.Net):
  about three `Int` multiply-adds mod `p` of 50 reductions, each in a cell, plus two copy
  cells = 203 reductions.
Calibration: kim-em/hex-dev `HexRank/SPEC/hex-rank.md` measures hex's plain triangular check
(`r³ / 3` `Packed.dotNat` terms of 7 reductions) at 0.89 s for 40 × 40 and 3.9 s for
64 × 64; hence 5.96 µs per reduction (the 64 × 64 point is reproduced within 1.07). Memory:
about 1 KiB per retained result (the `whnf` caches live for the whole declaration). The
Python function `certify.lean_cost.lean_rank_cost` (seconds) and `lean_rank_memory_gib`
compute the model; above `--lean-max-seconds` (600) or `--lean-max-gib` (16) the verdict is
`not-run`. The model's figures (generated by `python -m certify.lean_cost`; a test keeps this
copy equal to the model):

<!-- begin: python -m certify.lean_cost -->
| certificate | r | n | L | s | m | reductions | time | memory | packed design: time (largest block memory) |
|---|---|---|---|---|---|---|---|---|---|
| (3, 2, 1) t², lower + upper | 5 | 8 | 10 | 3 | 1 | 3.83e+04 | 0.228 s | 0.00462 GiB | 0.0281 s (0.118 MiB) |
| r = 101, n = 120, lower only | 101 | 120 | 0 | 0 | 0 | 1.12e+07 | 1.1 min | 1.83 GiB | 2.94 s (1.85 MiB) |
| (10, 20, 10, 1) t², lower only | 335 | 410 | 0 | 0 | 0 | 3.29e+08 | 32.7 min | 57.8 GiB | 33.1 s (6.3 MiB) |
| (10, 20, 10, 1) t², lower + upper | 335 | 410 | 1001 | 75 | 2 | 2.12e+09 | 3.5 h | 314 GiB | 3.3 min (6.3 MiB) |
| 10³ parameters, r = 1000, lower only | 1000 | 1000 | 0 | 0 | 0 | 8.09e+09 | 13.4 h | 1.46e+03 GiB | 4.2 min (15.9 MiB) |
| 10³ parameters, r = 900, s = 100, L = 1001, m = 2 | 900 | 1000 | 1001 | 100 | 2 | 1.16e+10 | 19.2 h | 1.89e+03 GiB | 10.3 min (15.6 MiB) |

| hex plain `checkRankList`, full rank | measured | model |
|---|---|---|
| 40 × 40 | 0.89 s | 0.89 s |
| 64 × 64 | 3.9 s | 3.65 s |
<!-- end: python -m certify.lean_cost -->

DESIGN (docs/lean-kernel.md, "Design"; not implemented here: this file is still the list
encoding priced above). A 10³-parameter rank check fits the kernel with hex's techniques
(HexRank/Kernel.lean, HexMatrix/Packed.lean): `Nat.mul`/`Nat.add`/`Nat.mod` called directly in
loops that apply `List.rec` directly (no `brecOn`, no instance dispatch) and rows computed on
`Nat` residues instead of `Int` through `arithMod`; the minor read by one walk per row against
strictly increasing columns (implemented: `selectMinor`); a triangular `B · V ≡ L (mod p)` certificate
instead of elimination; each dot product packed into one big GMP `Nat.mul` (slot width `W`
with `r · p² < 2^W`, read back by `Nat.shiftRight` and `Nat.land`); one theorem per block
(a row, a row of the check, a lattice point per modulus), since the kernel's caches are per
declaration. The model's estimate for it is the last column above. None of its core names
(`List.rec` with an explicit motive, `Nat.shiftLeft/shiftRight/land` and their kernel
acceleration) has been audited against the Lean sources yet, so none is used.
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
