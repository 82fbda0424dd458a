(** Arithmetic of the kernel checkers: Z/p on primitive 63-bit integers, and exact
    rationals as unnormalised pairs [(num, den)] of [Z].
    Python twin: certify/checker/kernel/arith.py; Lean twin:
    lean/NNCert/Arith.lean. Values mod p are kept in [[0, p)] with [1 < p < 2^31], so a
    product of two of them is below 2^62 and never wraps around 2^63. *)
From Coq Require Import ZArith List Bool Uint63.
Import ListNotations.
Open Scope Z_scope.

(** The operations network evaluation needs. *)
Record arith (A : Type) := mk_arith { add : A -> A -> A; mul : A -> A -> A; zero : A; one : A }.
Arguments add {A} _ _ _.
Arguments mul {A} _ _ _.
Arguments zero {A} _.
Arguments one {A} _.

(** Z/p with representatives in [[0, p)]. *)
Definition arith_mod (p : int) : arith int :=
  mk_arith int (fun a b => PrimInt63.mod (PrimInt63.add a b) p)
               (fun a b => PrimInt63.mod (PrimInt63.mul a b) p) 0%uint63 1%uint63.

(** Sum of unnormalised fractions: [a/b + c/d = (a d + c b) / (b d)]. *)
Definition qadd (a b : Z * Z) : Z * Z :=
  (fst a * snd b + fst b * snd a, snd a * snd b).

(** Product of unnormalised fractions. *)
Definition qmul (a b : Z * Z) : Z * Z := (fst a * fst b, snd a * snd b).

(** Exact rational arithmetic on pairs; zero is any pair with numerator 0. *)
Definition arith_q : arith (Z * Z) := mk_arith (Z * Z) qadd qmul (0, 1) (1, 1).

(** Exact integer arithmetic (the bounds of the exactness-from-residues checks). *)
Definition arith_z : arith Z := mk_arith Z Z.add Z.mul 0 1.

(** The modulus is usable: [1 < p < 2^31]. *)
Definition p_ok (p : Z) : bool := (1 <? p) && (p <? 2147483648).

(** [den > 0] and [den * inv = 1 (mod p)]: then [num/den] reduces to [num * inv mod p]. *)
Definition rat_inv_ok (p : Z) (r : Z * Z) (inv : Z) : bool :=
  (0 <? snd r) && Z.eqb ((snd r mod p) * (inv mod p) mod p) 1.

(** The residue of [num/den] mod p, given the inverse of [den]. *)
Definition rat_mod (p : Z) (r : Z * Z) (inv : Z) : int :=
  Uint63.of_Z ((fst r mod p) * (inv mod p) mod p).

(** Pointwise [rat_inv_ok], and equal lengths. *)
Fixpoint rats_inv_ok (p : Z) (rs : list (Z * Z)) (invs : list Z) : bool :=
  match rs, invs with
  | [], [] => true
  | r :: rs', i :: invs' => rat_inv_ok p r i && rats_inv_ok p rs' invs'
  | _, _ => false
  end.

(** Pointwise [rat_mod] (to the shorter length). *)
Fixpoint rats_mod (p : Z) (rs : list (Z * Z)) (invs : list Z) : list int :=
  match rs, invs with
  | r :: rs', i :: invs' => rat_mod p r i :: rats_mod p rs' invs'
  | _, _ => []
  end.

(** [rats_inv_ok] for every activation. *)
Fixpoint acts_inv_ok (p : Z) (acts : list (list (Z * Z))) (invs : list (list Z)) : bool :=
  match acts, invs with
  | [], [] => true
  | a :: acts', i :: invs' => rats_inv_ok p a i && acts_inv_ok p acts' invs'
  | _, _ => false
  end.

(** [rats_mod] for every activation. *)
Fixpoint acts_mod (p : Z) (acts : list (list (Z * Z))) (invs : list (list Z))
  : list (list int) :=
  match acts, invs with
  | a :: acts', i :: invs' => rats_mod p a i :: acts_mod p acts' invs'
  | _, _ => []
  end.

(** Every denominator is positive. *)
Fixpoint rats_pos (rs : list (Z * Z)) : bool :=
  match rs with
  | [] => true
  | r :: rs' => (0 <? snd r) && rats_pos rs'
  end.

(** [rats_pos] for every activation. *)
Fixpoint acts_pos (acts : list (list (Z * Z))) : bool :=
  match acts with
  | [] => true
  | a :: acts' => rats_pos a && acts_pos acts'
  end.

(** Integers mod p. *)
Definition ints_mod (p : Z) (xs : list Z) : list int :=
  map (fun x => Uint63.of_Z (x mod p)) xs.

(** Integers as fractions [x/1]. *)
Definition ints_q (xs : list Z) : list (Z * Z) := map (fun x => (x, 1)) xs.

(** Every fraction is zero (numerator 0). *)
Fixpoint all_zero_q (xs : list (Z * Z)) : bool :=
  match xs with
  | [] => true
  | x :: xs' => Z.eqb (fst x) 0 && all_zero_q xs'
  end.

(** The zero vector of length [n]. *)
Fixpoint zeros {A : Type} (ar : arith A) (n : nat) : list A :=
  match n with
  | O => []
  | S n' => zero ar :: zeros ar n'
  end.

(** The unit vector [e_c] of length [n] (all zero when [c >= n]). *)
Fixpoint unit_vec {A : Type} (ar : arith A) (n : nat) (c : nat) : list A :=
  match n with
  | O => []
  | S n' =>
      match c with
      | O => one ar :: zeros ar n'
      | S c' => zero ar :: unit_vec ar n' c'
      end
  end.

(** [-a]. *)
Definition qneg (a : Z * Z) : Z * Z := (- fst a, snd a).

(** [a = b] as rationals, by cross-multiplication (both denominators positive). *)
Definition qeq (a b : Z * Z) : bool := Z.eqb (fst a * snd b) (fst b * snd a).

(** The fraction is nonzero (numerator nonzero; the denominator is positive). *)
Definition nonzero_q (a : Z * Z) : bool := negb (Z.eqb (fst a) 0).

(** Entry [j] of a list of fractions, [0 = (0, 1)] past the end. *)
Fixpoint nth_q (xs : list (Z * Z)) (j : nat) : Z * Z :=
  match xs, j with
  | [], _ => (0, 1)
  | x :: _, O => x
  | _ :: xs', S j' => nth_q xs' j'
  end.

(** Equal lengths and [a[i] = b[i]] as rationals. *)
Fixpoint qeq_all (a b : list (Z * Z)) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => qeq x y && qeq_all a' b'
  | _, _ => false
  end.
