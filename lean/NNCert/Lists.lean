/-
NNCert.Lists: list helpers of the kernel checkers.
Python twin: certify/checker/kernel/lists.py (NNCert/Lists); Coq twin: coq/NNCert/kernel/Lists.v.
Each definition mirrors the Python function of the same name (snake_case there, camelCase here),
in the same order. Python loops and comprehensions become structural recursion on one list or
`Nat` argument that shrinks in every recursive call (`termination_by structural`).
-/

namespace NNCert

/-- `nthD d xs j` is the entry `xs[j]`, and the default `d` when `j` is past the end of `xs`:
the kernel's one list lookup. `nth`, `nthNat`, `nthRow` (and `nthQ` in NNCert.Arith) are it at
the default of their type; they keep the names of their Python and Coq twins (`nth`/`nth_z`,
`nth_nat`, `nth_row`, `nth_q`), where each is its own function.
(Same pattern as the other definitions here: implicit `{α : Type}`, a `match` on two
arguments, structural recursion on the list; `d` stays fixed in the recursive call.) -/
def nthD {α : Type} (d : α) (xs : List α) (j : Nat) : α :=
  match xs, j with
  | [], _ => d
  | x :: _, 0 => x
  | _ :: xs', j' + 1 => nthD d xs' j'
termination_by structural xs

/-- `nth xs j` is the entry `xs[j]`, and `0` when `j` is past the end of `xs`. -/
def nth (xs : List Int) (j : Nat) : Int :=
  nthD (0 : Int) xs j

/-- `nthNat xs j` is the entry `xs[j]` of a list of naturals, and `0` when `j` is past the end of
`xs` (`nth` on `Nat`: node indices, classes, residues). -/
def nthNat (xs : List Nat) (j : Nat) : Nat :=
  nthD (0 : Nat) xs j

/-- `nthRow rows i` is the row `rows[i]`, and `[]` when `i` is past the end of `rows`. -/
def nthRow {α : Type} (rows : List (List α)) (i : Nat) : List α :=
  nthD ([] : List α) rows i

/-- `takeN n xs` is the prefix `xs[:n]`: the first `n` entries of `xs`, or all of `xs` when it
has fewer than `n`. -/
def takeN {α : Type} (n : Nat) (xs : List α) : List α :=
  match n, xs with
  | 0, _ => []
  | _, [] => []
  | n' + 1, x :: xs' => x :: takeN n' xs'
termination_by structural n

/-- `dropN n xs` is the suffix `xs[n:]`: `xs` without its first `n` entries, or `[]` when it has
fewer than `n`. -/
def dropN {α : Type} (n : Nat) (xs : List α) : List α :=
  match n, xs with
  | 0, ys => ys
  | _, [] => []
  | n' + 1, _ :: xs' => dropN n' xs'
termination_by structural n

/-- `allLt k xs` holds when `x < k` for every entry `x` of `xs`. -/
def allLt (k : Nat) (xs : List Nat) : Bool :=
  match xs with
  | [] => true
  | x :: xs' => Nat.blt x k && allLt k xs'
termination_by structural xs

/-- `rowsLen m rows` holds when every row of `rows` has length `m`. -/
def rowsLen {α : Type} (m : Nat) (rows : List (List α)) : Bool :=
  match rows with
  | [] => true
  | r :: rows' => Nat.beq r.length m && rowsLen m rows'
termination_by structural rows

/-- `allPos xs` holds when `x > 0` for every entry `x` of `xs`. -/
def allPos (xs : List Nat) : Bool :=
  match xs with
  | [] => true
  | x :: xs' => Nat.blt 0 x && allPos xs'
termination_by structural xs

/-- `rangeFrom start count` is `[start, start + 1, ..., start + count - 1]` (`count` entries). -/
def rangeFrom (start : Int) (count : Nat) : List Int :=
  match count with
  | 0 => []
  | count' + 1 => start :: rangeFrom (start + 1) count'
termination_by structural count

/-- `rangeNat start count` is `[start, start + 1, ..., start + count - 1]` on `Nat` (`count`
entries; `rangeFrom` on `Nat`). -/
def rangeNat (start count : Nat) : List Nat :=
  match count with
  | 0 => []
  | count' + 1 => start :: rangeNat (start + 1) count'
termination_by structural count

/-- `prependEach v pts` is `[v :: pt for pt in pts]`: the point `v` put in front of every point
of `pts`. -/
def prependEach (v : Int) (pts : List (List Int)) : List (List Int) :=
  match pts with
  | [] => []
  | pt :: pts' => (v :: pt) :: prependEach v pts'
termination_by structural pts

/-- `consAll vals pts` is the product `vals × pts` as points `v :: pt`, with `v` in the outer
loop: first every `vals[0] :: pt`, then every `vals[1] :: pt`, and so on. -/
def consAll (vals : List Int) (pts : List (List Int)) : List (List Int) :=
  match vals with
  | [] => []
  | v :: vals' => prependEach v pts ++ consAll vals' pts
termination_by structural vals

/-- `grid dim deg` lists all points of `{0, ..., deg}^dim` (the first coordinate varies
slowest). -/
def grid (dim deg : Nat) : List (List Int) :=
  match dim with
  | 0 => [[]]
  | dim' + 1 => consAll (rangeFrom 0 (deg + 1)) (grid dim' deg)
termination_by structural dim

/-- `sumZ xs` is the sum `Σ_i xs[i]` of the entries of `xs` (`0` for `[]`). -/
def sumZ (xs : List Int) : Int :=
  match xs with
  | [] => 0
  | x :: xs' => x + sumZ xs'
termination_by structural xs

/-- `lattice dim deg` is the principal lattice `{x ∈ {0, ..., deg}^dim : x_1 + ... + x_dim ≤ deg}`,
in the order of `grid`: unisolvent for polynomials of total degree `≤ deg` (one that vanishes at
all these points is zero). Built directly — first coordinate `v`, then the lattice of dimension
`dim - 1` and degree `deg - v` — never by filtering the `(deg+1)^dim` grid. `List.range` and
`List.flatMap` (`flatten (map b a)`) are core (src/Init/Data/List/Basic.lean, verified in the
stored lean4 sources); the recursive call sits under the `fun` on the smaller `d`. -/
def lattice (dim deg : Nat) : List (List Int) :=
  match dim with
  | 0 => [[]]
  | d + 1 => (List.range (deg + 1)).flatMap (fun v => prependEach (Int.ofNat v) (lattice d (deg - v)))
termination_by structural dim

/-- `memNat i xs` holds when `i` occurs in `xs`. -/
def memNat (i : Nat) (xs : List Nat) : Bool :=
  match xs with
  | [] => false
  | x :: xs' => Nat.beq i x || memNat i xs'
termination_by structural xs

/-- `nodupNat xs` holds when no entry of `xs` occurs twice. -/
def nodupNat (xs : List Nat) : Bool :=
  match xs with
  | [] => true
  | x :: xs' => !(memNat x xs') && nodupNat xs'
termination_by structural xs

/-- `zlistEq a b` holds when the integer lists `a` and `b` are equal: same length, same entries
(structural recursion, no `DecidableEq (List Int)` instance on the kernel path). -/
def zlistEq (a b : List Int) : Bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => decide (x = y) && zlistEq a' b'
  | _, _ => false
termination_by structural a

/-- `allZero xs` holds when every entry of `xs` is `0`. Lean-only helper of `isUnitRow` (the
Python twin checks the entries after index `k` inside one `all(...)` over `enumerate(row)`). -/
def allZero (xs : List Int) : Bool :=
  match xs with
  | [] => true
  | x :: xs' => decide (x = 0) && allZero xs'
termination_by structural xs

/-- `isUnitRow k row` holds when `row` is the unit vector `e_k` of its length: `k < row.length`,
`row[k] = 1`, and every other entry is `0`. -/
def isUnitRow (k : Nat) (row : List Int) : Bool :=
  match row, k with
  | [], _ => false
  | x :: row', 0 => decide (x = 1) && allZero row'
  | x :: row', k' + 1 => decide (x = 0) && isUnitRow k' row'
termination_by structural row

end NNCert
