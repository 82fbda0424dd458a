/-
NNCert.Arith: the arithmetics of the checkers (`ℤ/p`, exact rational pairs, exact integers) and
the reductions of rational data mod `p`.
Python twin: certify/checker/kernel/arith.py (NNCert/Arith); Coq twin:
coq/NNCert/kernel/Arith.v. Same names (camelCase here), same order.
Conventions: a rational is a pair `(num, den)` with `den > 0`, never normalised; values mod `p`
lie in `[0, p)` with `1 < p < 2^31`; `%` is `Int.emod` (the remainder is in `[0, p)` for `p > 0`).
-/
import NNCert.Lists

namespace NNCert

/-- The operations network evaluation needs: addition, multiplication, zero and one of a
commutative ring (`arithMod p` is `ℤ/p`, `arithQ` is exact arithmetic on rational pairs).
Python twin: the dataclass `Arith`. -/
structure Arith (α : Type) where
  add : α → α → α
  mul : α → α → α
  zero : α
  one : α

/-- `arithMod p` is the ring `ℤ/p` on representatives in `[0, p)`: sum and product reduced
by `% p`, zero `0`, one `1`. -/
def arithMod (p : Int) : Arith Int :=
  { add := fun a b => (a + b) % p,
    mul := fun a b => (a * b) % p,
    zero := 0,
    one := 1 }

/-- `qadd a b` is the sum of the rationals `a.1 / a.2` and `b.1 / b.2` as the pair
`(a.1 * b.2 + b.1 * a.2, a.2 * b.2)` (not normalised). -/
def qadd (a b : Int × Int) : Int × Int :=
  (a.1 * b.2 + b.1 * a.2, a.2 * b.2)

/-- `qmul a b` is the product of the rationals `a.1 / a.2` and `b.1 / b.2` as the pair
`(a.1 * b.1, a.2 * b.2)` (not normalised). -/
def qmul (a b : Int × Int) : Int × Int :=
  (a.1 * b.1, a.2 * b.2)

/-- `arithQ` is exact arithmetic on rational pairs: `qadd`, `qmul`, zero `0/1`, one `1/1`.
Python twin: the constant `ARITH_Q`. -/
def arithQ : Arith (Int × Int) :=
  { add := qadd,
    mul := qmul,
    zero := (0, 1),
    one := (1, 1) }

/-- `arithZ` is exact integer arithmetic: `+`, `*`, zero `0`, one `1` (used to evaluate the
rows of a network on absolute values, a bound on every row entry). Python twin: the constant
`ARITH_Z`. -/
def arithZ : Arith Int :=
  { add := fun a b => a + b,
    mul := fun a b => a * b,
    zero := 0,
    one := 1 }

/-- `pOk p` holds when `1 < p < 2^31` (`P_BOUND = 2^31 = 2147483648` in the Python twin). -/
def pOk (p : Int) : Bool :=
  decide (1 < p) && decide (p < 2147483648)

/-- `ratInvOk p r inv` holds when the denominator is positive and `inv` is its inverse mod `p`:
`r.2 > 0` and `r.2 * inv ≡ 1 (mod p)`; then `r.1 / r.2` reduces to `r.1 * inv` mod `p`. -/
def ratInvOk (p : Int) (r : Int × Int) (inv : Int) : Bool :=
  decide (r.2 > 0) && decide (((r.2 % p) * (inv % p)) % p = 1)

/-- `ratMod p r inv` is `r.1 * inv` reduced mod `p`: the residue of `r.1 / r.2` when `inv` is
the inverse of `r.2` mod `p`. -/
def ratMod (p : Int) (r : Int × Int) (inv : Int) : Int :=
  ((r.1 % p) * (inv % p)) % p

/-- `ratsInvOk p rs invs` holds when `rs` and `invs` have the same length and
`ratInvOk p rs[i] invs[i]` holds for every `i`. -/
def ratsInvOk (p : Int) (rs : List (Int × Int)) (invs : List Int) : Bool :=
  match rs, invs with
  | [], [] => true
  | r :: rs', i :: invs' => ratInvOk p r i && ratsInvOk p rs' invs'
  | _, _ => false
termination_by structural rs

/-- `ratsMod p rs invs` is `[ratMod p rs[i] invs[i]]` over the shorter of the two lists. -/
def ratsMod (p : Int) (rs : List (Int × Int)) (invs : List Int) : List Int :=
  match rs, invs with
  | r :: rs', i :: invs' => (ratMod p r i) :: ratsMod p rs' invs'
  | _, _ => []
termination_by structural rs

/-- `actsInvOk p acts invs` holds when `acts` and `invs` have the same length and
`ratsInvOk p acts[l] invs[l]` holds for every activation `l`. -/
def actsInvOk (p : Int) (acts : List (List (Int × Int))) (invs : List (List Int)) : Bool :=
  match acts, invs with
  | [], [] => true
  | a :: acts', i :: invs' => ratsInvOk p a i && actsInvOk p acts' invs'
  | _, _ => false
termination_by structural acts

/-- `actsMod p acts invs` is `[ratsMod p acts[l] invs[l]]` over the shorter of the two lists:
the activations' coefficients mod `p`. -/
def actsMod (p : Int) (acts : List (List (Int × Int))) (invs : List (List Int)) :
    List (List Int) :=
  match acts, invs with
  | a :: acts', i :: invs' => (ratsMod p a i) :: actsMod p acts' invs'
  | _, _ => []
termination_by structural acts

/-- `ratsPos rs` holds when every rational pair of `rs` has a positive denominator. -/
def ratsPos (rs : List (Int × Int)) : Bool :=
  match rs with
  | [] => true
  | r :: rs' => decide (r.2 > 0) && ratsPos rs'
termination_by structural rs

/-- `actsPos acts` holds when `ratsPos` holds for every activation's coefficient list. -/
def actsPos (acts : List (List (Int × Int))) : Bool :=
  match acts with
  | [] => true
  | a :: acts' => ratsPos a && actsPos acts'
termination_by structural acts

/-- `intsMod p xs` is `[x % p for x in xs]`: every entry reduced into `[0, p)`. -/
def intsMod (p : Int) (xs : List Int) : List Int :=
  match xs with
  | [] => []
  | x :: xs' => (x % p) :: intsMod p xs'
termination_by structural xs

/-- `intsQ xs` is `[(x, 1) for x in xs]`: the integers `xs` as rational pairs `x / 1`. -/
def intsQ (xs : List Int) : List (Int × Int) :=
  match xs with
  | [] => []
  | x :: xs' => (x, 1) :: intsQ xs'
termination_by structural xs

/-- `allZeroQ xs` holds when every rational pair of `xs` has numerator `0` (so it is zero,
its denominator being nonzero). -/
def allZeroQ (xs : List (Int × Int)) : Bool :=
  match xs with
  | [] => true
  | x :: xs' => decide (x.1 = 0) && allZeroQ xs'
termination_by structural xs

/-- `zeros ar n` is the zero vector `[ar.zero, ..., ar.zero]` of length `n`. -/
def zeros {α : Type} (ar : Arith α) (n : Nat) : List α :=
  match n with
  | 0 => []
  | n' + 1 => ar.zero :: zeros ar n'
termination_by structural n

/-- `unitVec ar n c` is the unit vector `e_c` of length `n`: `ar.one` at index `c` and `ar.zero`
elsewhere (all zero when `c ≥ n`). -/
def unitVec {α : Type} (ar : Arith α) (n c : Nat) : List α :=
  match n, c with
  | 0, _ => []
  | n' + 1, 0 => ar.one :: zeros ar n'
  | n' + 1, c' + 1 => ar.zero :: unitVec ar n' c'
termination_by structural n

/-- `qneg a` is `-a` as the pair `(-a.1, a.2)`. -/
def qneg (a : Int × Int) : Int × Int :=
  (-(a.1), a.2)

/-- `qeq a b` holds when `a = b` as rationals: `a.1 * b.2 = b.1 * a.2` (both denominators
positive). -/
def qeq (a b : Int × Int) : Bool :=
  decide (a.1 * b.2 = b.1 * a.2)

/-- `nonzeroQ a` holds when the rational pair `a` is not zero: its numerator is not `0`. -/
def nonzeroQ (a : Int × Int) : Bool :=
  !(decide (a.1 = 0))

/-- `nthQ xs j` is the entry `xs[j]` of a list of rational pairs, and `(0, 1)` past the end
(`nthD` of NNCert.Lists at the rational zero). -/
def nthQ (xs : List (Int × Int)) (j : Nat) : Int × Int :=
  nthD ((0, 1) : Int × Int) xs j

/-- `qeqAll a b` holds when `a` and `b` have the same length and `a[i] = b[i]` as rationals
(`qeq`) for every `i`; false on a length mismatch. -/
def qeqAll (a b : List (Int × Int)) : Bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => qeq x y && qeqAll a' b'
  | _, _ => false
termination_by structural a

end NNCert
