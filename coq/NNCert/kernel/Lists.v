(** List helpers of the nn-certify kernel checkers.
    Python twin: certify/checker/kernel/lists.py; Lean twin: lean/NNCert/Lists.lean.
    Conventions: structural recursion on one argument; [nat] only for indices and counts. *)
From Coq Require Import ZArith List Bool.
Import ListNotations.
Open Scope Z_scope.

(** Entry [j] of [xs], [0] past the end. *)
Fixpoint nth_z (xs : list Z) (j : nat) : Z :=
  match xs, j with
  | [], _ => 0
  | x :: _, O => x
  | _ :: xs', S j' => nth_z xs' j'
  end.

(** Entry [j] of a list of naturals, [0] past the end ([nth_z] on [nat]). *)
Fixpoint nth_nat (xs : list nat) (j : nat) : nat :=
  match xs, j with
  | [], _ => O
  | x :: _, O => x
  | _ :: xs', S j' => nth_nat xs' j'
  end.

(** Row [i] of [rows], [[]] past the end. *)
Fixpoint nth_row {A : Type} (rows : list (list A)) (i : nat) : list A :=
  match rows, i with
  | [], _ => []
  | r :: _, O => r
  | _ :: rows', S i' => nth_row rows' i'
  end.

(** The first [n] elements (fewer if [xs] is shorter). *)
Fixpoint take_n {A : Type} (n : nat) (xs : list A) : list A :=
  match n, xs with
  | O, _ => []
  | S _, [] => []
  | S n', x :: xs' => x :: take_n n' xs'
  end.

(** [xs] without its first [n] elements. *)
Fixpoint drop_n {A : Type} (n : nat) (xs : list A) : list A :=
  match n, xs with
  | O, _ => xs
  | S _, [] => []
  | S n', _ :: xs' => drop_n n' xs'
  end.

(** Every entry is below [k]. *)
Fixpoint all_lt (k : nat) (xs : list nat) : bool :=
  match xs with
  | [] => true
  | x :: xs' => Nat.ltb x k && all_lt k xs'
  end.

(** Every row has length [m]. *)
Fixpoint rows_len {A : Type} (m : nat) (rows : list (list A)) : bool :=
  match rows with
  | [] => true
  | r :: rows' => Nat.eqb (length r) m && rows_len m rows'
  end.

(** Every entry is positive. *)
Fixpoint all_pos (xs : list nat) : bool :=
  match xs with
  | [] => true
  | x :: xs' => Nat.ltb 0 x && all_pos xs'
  end.

(** [[start; start+1; ...; start+count-1]]. *)
Fixpoint range_from (start : Z) (count : nat) : list Z :=
  match count with
  | O => []
  | S c => start :: range_from (start + 1) c
  end.

(** [[start; start+1; ...; start+count-1]] on [nat] ([range_from] on [nat]). *)
Fixpoint range_nat (start count : nat) : list nat :=
  match count with
  | O => []
  | S c => start :: range_nat (S start) c
  end.

(** [v :: pt] for every point [pt]. *)
Definition prepend_each (v : Z) (pts : list (list Z)) : list (list Z) :=
  map (fun pt => v :: pt) pts.

(** All [v :: pt] with [v] in [vals] (outer loop) and [pt] in [pts]. *)
Fixpoint cons_all (vals : list Z) (pts : list (list Z)) : list (list Z) :=
  match vals with
  | [] => []
  | v :: vals' => prepend_each v pts ++ cons_all vals' pts
  end.

(** All points of [{0..deg}^dim]. *)
Fixpoint grid (dim : nat) (deg : nat) : list (list Z) :=
  match dim with
  | O => [[]]
  | S d => cons_all (range_from 0 (S deg)) (grid d deg)
  end.

(** Sum of the entries. *)
Fixpoint sum_z (xs : list Z) : Z :=
  match xs with
  | [] => 0
  | x :: xs' => x + sum_z xs'
  end.

(** The principal lattice [{x in {0..deg}^dim : x_1 + ... + x_dim <= deg}], in the
    lexicographic order of [grid]: unisolvent for polynomials of total degree [<= deg] (one
    vanishing at all these points is zero). Built directly (first coordinate [v], then the
    lattice of dimension [dim - 1] and degree [deg - v]), never by filtering the grid. *)
Fixpoint lattice (dim : nat) (deg : nat) : list (list Z) :=
  match dim with
  | O => [[]]
  | S d => flat_map (fun v => prepend_each (Z.of_nat v) (lattice d (deg - v))) (seq 0 (S deg))
  end.

(** [i] occurs in [xs]. *)
Fixpoint mem_nat (i : nat) (xs : list nat) : bool :=
  match xs with
  | [] => false
  | x :: xs' => Nat.eqb i x || mem_nat i xs'
  end.

(** No entry occurs twice. *)
Fixpoint nodup_nat (xs : list nat) : bool :=
  match xs with
  | [] => true
  | x :: xs' => negb (mem_nat x xs') && nodup_nat xs'
  end.

(** Equal integer lists (same length, same entries). *)
Fixpoint zlist_eq (a b : list Z) : bool :=
  match a, b with
  | [], [] => true
  | x :: a', y :: b' => Z.eqb x y && zlist_eq a' b'
  | _, _ => false
  end.
