(** The rank core shared by every family (polynomial MLPs, ResNets, ReLU networks).
    Python twin: certify/checker/kernel/rank_core.py; Lean twin: lean/NNCert/RankCore.lean.
    A family computes the Jacobian rows of its literal instance (mod p, by reverse mode);
    the core decides what a rank certificate needs:
    - lower bound: the [r x r] minor on the rows of the labels [R] and the columns [C] is
      nonsingular mod p, decided here by fraction-free Gaussian elimination (no inverse is
      shipped: O(r) indices instead of r^2 residues, about r^3/3 multiply-adds instead of
      the r^3 of an inverse-product check); det != 0 mod p gives det != 0 over Q. The VM's
      cost is the list cell, not the arithmetic, so the minor is read in one walk per row
      ([select_minor]) and eliminated two columns per pass ([nonsingular2_mod]); ElimSound.v
      proves both equal to the one-entry-at-a-time definitions ([minor_rows],
      [nonsingular_mod]) that the soundness proof is about;
    - independence of integer tangents (the upper bound at theta): a nonsingular minor mod p;
    - exactness from residues: an integer [v] with [|v| <= B] that vanishes mod pairwise
      coprime moduli whose product exceeds [B] is [0].
    Residues lie in [[0, p)] with [1 < p < 2^31]: [a*y + (p-b)*x < 2^63] never wraps. *)
From Coq Require Import ZArith NArith List Bool Uint63.
From NNCert Require Import Lists Arith.
Import ListNotations.
Open Scope Z_scope.

(** Entry [j] of a list of residues, [0] past the end (Coq-only: [nth] on [int]). *)
Fixpoint nth_int (xs : list int) (j : nat) : int :=
  match xs, j with
  | [], _ => 0%uint63
  | x :: _, O => x
  | _ :: xs', S j' => nth_int xs' j'
  end.

(** The row labels [(s, k)] of a certificate written with binary [N] literals (a unary
    [nat] literal [s] costs [s] constructors to elaborate, the [N] one about [log2 s]).
    Coq-only: the Python and Lean twins read labels as binary integers already. *)
Definition labels_of_N (ls : list (N * N)) : list (nat * nat) :=
  map (fun l => (N.to_nat (fst l), N.to_nat (snd l))) ls.

(** Every row label [(s, k)] has [s < m] and [k < dout]. *)
Fixpoint rows_in_range (m dout : nat) (rows : list (nat * nat)) : bool :=
  match rows with
  | [] => true
  | r :: rows' => Nat.ltb (fst r) m && Nat.ltb (snd r) dout && rows_in_range m dout rows'
  end.

(** * Elimination mod p *)

(** [(a * y + (p - b) * x) mod p] for the entries [x] of [pt] and [y] of [rt]: the row
    [b :: rt] after the step [a * row - b * pivot] (pivot [a :: pt]), without its first
    entry, which is [0]. *)
Fixpoint elim_tail (p a b : int) (pt rt : list int) : list int :=
  match pt, rt with
  | x :: pt', y :: rt' =>
      PrimInt63.mod (PrimInt63.add (PrimInt63.mul a y) (PrimInt63.mul (PrimInt63.sub p b) x)) p
        :: elim_tail p a b pt' rt'
  | _, _ => []
  end.

(** Eliminate the first column of [row] with the pivot row [piv]; one entry shorter.
    Multiplying a row by the unit [a = hd piv] keeps the rank. *)
Definition elim_row (p : int) (piv row : list int) : list int :=
  match piv, row with
  | a :: pt, b :: rt => elim_tail p a b pt rt
  | _, _ => []
  end.

(** The first entry is nonzero (an empty row counts as starting with [0]). *)
Definition lead_nonzero (row : list int) : bool :=
  match row with
  | x :: _ => negb (PrimInt63.eqb x 0)
  | [] => false
  end.

(** [(the first row with a nonzero first entry, the other rows in order)], or [None]. *)
Fixpoint pick_pivot (rows : list (list int)) : option (list int * list (list int)) :=
  match rows with
  | [] => None
  | row :: rows' =>
      if lead_nonzero row then Some (row, rows')
      else match pick_pivot rows' with
           | None => None
           | Some (piv, rest) => Some (piv, row :: rest)
           end
  end.

(** [M] ([fuel] rows of [fuel] residues) is nonsingular mod p: each step finds a pivot in
    the first column and eliminates it from the other rows, leaving a
    [(fuel-1) x (fuel-1)] matrix that is nonsingular iff [M] is; a column without a pivot
    means [det M = 0 mod p] (p prime: the residues form a field). *)
Fixpoint nonsingular_mod (p : int) (fuel : nat) (M : list (list int)) : bool :=
  match fuel with
  | O => match M with [] => true | _ :: _ => false end
  | S f =>
      match pick_pivot M with
      | None => false
      | Some (piv, rest) => nonsingular_mod p f (map (elim_row p piv) rest)
      end
  end.

(** * Two columns per pass

    [nonsingular_mod] allocates every entry of every step's rows; the VM's cost is the list
    cell, not the arithmetic. [nonsingular2_mod] takes the two pivots of two consecutive steps
    and eliminates both columns in one pass over each row, computing exactly the rows of two
    steps of [nonsingular_mod] (ElimSound.v [nonsingular2_mod_eq]): about half the cells. *)

(** [((A * y + B * x) mod p + C * q) mod p] for the entries [x] of [pt], [q] of [qt], [y] of
    [rt] (residues below [p < 2^31]: no sum of two products wraps). *)
Fixpoint elim2_tail (p A B C : int) (pt qt rt : list int) : list int :=
  match pt, qt, rt with
  | x :: pt', q :: qt', y :: rt' =>
      PrimInt63.mod
        (PrimInt63.add
           (PrimInt63.mod (PrimInt63.add (PrimInt63.mul A y) (PrimInt63.mul B x)) p)
           (PrimInt63.mul C q)) p
        :: elim2_tail p A B C pt' qt' rt'
  | _, _, _ => []
  end.

(** [elim_row p piv2 (elim_row p piv row)] in one pass: with [piv = a :: x0 :: pt],
    [piv2 = d :: qt] (a row of the first step's output) and [row = b :: y0 :: rt], the first
    step makes [row] into [e :: (a * rt - b * pt)] ([e = a * y0 - b * x0]) and the second
    into [d * (a * rt - b * pt) - e * qt = (d a) rt + (d (p - b)) pt + (p - e) qt] mod p. *)
Definition elim2_row (p : int) (piv piv2 row : list int) : list int :=
  match piv, piv2, row with
  | a :: x0 :: pt, d :: qt, b :: y0 :: rt =>
      let nb := PrimInt63.sub p b in
      let e := PrimInt63.mod (PrimInt63.add (PrimInt63.mul a y0) (PrimInt63.mul nb x0)) p in
      elim2_tail p (PrimInt63.mod (PrimInt63.mul d a) p) (PrimInt63.mod (PrimInt63.mul d nb) p)
        (PrimInt63.sub p e) pt qt rt
  | _, _, _ => []
  end.

(** The second step's pivot: [(elim_row p piv row, the other rows in order)] for the first
    [row] whose eliminated row has a nonzero first entry, or [None] ([pick_pivot] on
    [map (elim_row p piv) rows], which it equals, without eliminating the other rows). *)
Fixpoint pick_pivot2 (p : int) (piv : list int) (rows : list (list int))
    : option (list int * list (list int)) :=
  match rows with
  | [] => None
  | row :: rows' =>
      let e := elim_row p piv row in
      if lead_nonzero e then Some (e, rows')
      else match pick_pivot2 p piv rows' with
           | None => None
           | Some (q, rest) => Some (q, row :: rest)
           end
  end.

(** [nonsingular_mod p fuel M], two steps per pass ([fuel >= 2]). *)
Fixpoint nonsingular2_mod (p : int) (fuel : nat) (M : list (list int)) : bool :=
  match fuel with
  | S (S f) =>
      match pick_pivot M with
      | None => false
      | Some (piv, rest) =>
          match pick_pivot2 p piv rest with
          | None => false
          | Some (piv2, rest2) => nonsingular2_mod p f (map (elim2_row p piv piv2) rest2)
          end
      end
  | _ => nonsingular_mod p fuel M
  end.

(** The columns [cols] of every row ([0] past the end of a row). *)
Definition minor_rows (rows : list (list int)) (cols : list nat) : list (list int) :=
  map (fun row => map (fun c => nth_int row c) cols) rows.

(** The columns [g0, g0 + 1 + g1, ...] from [b] on, of the gaps [g0, g1, ...]: strictly
    increasing columns written as the numbers of columns skipped before each (a unary [nat]
    gap is small where a column index is not). [g + b], not [b + g]: [Nat.add] walks its
    first argument. *)
Fixpoint gap_cols (b : nat) (gaps : list nat) : list nat :=
  match gaps with
  | [] => []
  | g :: gs => (g + b)%nat :: gap_cols (S (g + b)) gs
  end.

(** The gaps of strictly increasing columns, all [>= b] ([gap_cols b] inverts it), or [None]
    for columns out of order. *)
Fixpoint col_gaps (b : nat) (cols : list nat) : option (list nat) :=
  match cols with
  | [] => Some []
  | c :: cs =>
      if Nat.leb b c then
        match col_gaps (S c) cs with
        | Some gs => Some ((c - b)%nat :: gs)
        | None => None
        end
      else None
  end.

(** The entries of [row] at the columns [gap_cols 0 gaps] ([0] past its end), in one walk
    along the row: skip [g] entries, take the next, go on from the one after. *)
Fixpoint sel_gaps (row : list int) (gaps : list nat) : list int :=
  match gaps with
  | [] => []
  | g :: gs =>
      let rest := skipn g row in
      hd 0%uint63 rest :: sel_gaps (tl rest) gs
  end.

(** [minor_rows rows cols], by one walk per row when the columns are strictly increasing
    ([sel_gaps]; ElimSound.v [select_minor_eq] proves the two equal), else by [minor_rows]. *)
Definition select_minor (rows : list (list int)) (cols : list nat) : list (list int) :=
  match col_gaps 0 cols with
  | Some gaps => map (fun row => sel_gaps row gaps) rows
  | None => minor_rows rows cols
  end.

(** Every residue reduced into [[0, p)] (the Python twin's [reduce_mod]). *)
Definition reduce_int_rows (p : int) (V : list (list int)) : list (list int) :=
  map (map (fun v => PrimInt63.mod v p)) V.

(** [r] rows (residues mod p of Jacobian rows of length [n]), [r] columns below [n], and
    the [r x r] minor on those columns nonsingular mod p: the rows have rank [>= r]. *)
Definition check_minor (p : Z) (n r : nat) (rows : list (list int)) (cols : list nat) : bool :=
  Nat.eqb (length rows) r && Nat.eqb (length cols) r && all_lt n cols &&
  nonsingular2_mod (Uint63.of_Z p) r (select_minor (reduce_int_rows (Uint63.of_Z p) rows) cols).

(** The lower-bound decision every family shares: [p] usable, [r] labels in range, and the
    rows the family computed for them (mod p) have a nonsingular [r x r] minor on [cols];
    then [rank_Q J >= r]. *)
Definition check_rank_core (p : Z) (n nsamples dout : nat) (labels : list (nat * nat))
    (rows : list (list int)) (cols : list nat) (r : nat) : bool :=
  p_ok p && Nat.eqb (length labels) r && rows_in_range nsamples dout labels &&
  check_minor p n r rows cols.

(** The integer vectors [ts] are linearly independent over Q: a nonsingular minor mod p. *)
Definition independent_mod (p : Z) (n : nat) (ts : list (list Z)) (cols : list nat) : bool :=
  p_ok p && check_minor p n (length ts) (map (ints_mod p) ts) cols.

(** * Exactness from residues *)

(** [gcd q q' = 1] for every [q'] in [qs]. *)
Fixpoint coprime_to_all (q : Z) (qs : list Z) : bool :=
  match qs with
  | [] => true
  | q' :: qs' => Z.eqb (Z.gcd q q') 1 && coprime_to_all q qs'
  end.

(** Every modulus is usable ([1 < q < 2^31]) and the moduli are pairwise coprime. *)
Fixpoint moduli_ok (qs : list Z) : bool :=
  match qs with
  | [] => true
  | q :: qs' => p_ok q && coprime_to_all q qs' && moduli_ok qs'
  end.

(** The product of the moduli. *)
Fixpoint prod_z (qs : list Z) : Z :=
  match qs with
  | [] => 1
  | q :: qs' => q * prod_z qs'
  end.

(** [sum_i xs[i] * ys[i] mod q] over the shorter length (entries in [[0, q)]). *)
Fixpoint dot_mod (q : int) (xs ys : list int) : int :=
  match xs, ys with
  | x :: xs', y :: ys' => PrimInt63.mod (PrimInt63.add (PrimInt63.mul x y) (dot_mod q xs' ys')) q
  | _, _ => 0%uint63
  end.

(** Every tangent is orthogonal mod q to every row (rows and tangents reduced mod q; the
    families reduce the tangents once per modulus, not once per point). *)
Definition kills_mod (q : Z) (rows tq : list (list int)) : bool :=
  forallb (fun row => forallb (fun t => PrimInt63.eqb (dot_mod (Uint63.of_Z q) row t) 0) tq)
    rows.

(** [sum_i bs[i] * |t[i]|] over the shorter length: a bound on [|row . t|] when
    [|row[i]| <= bs[i]]. *)
Fixpoint weighted_abs (bs t : list Z) : Z :=
  match bs, t with
  | b :: bs', x :: t' => b * Z.abs x + weighted_abs bs' t'
  | _, _ => 0
  end.

(** The largest [weighted_abs bs t] over the bound rows [bs] and the tangents [t]. *)
Definition kill_bound (bounds ts : list (list Z)) : Z :=
  fold_right (fun bs acc => fold_right (fun t acc' => Z.max acc' (weighted_abs bs t)) acc ts)
    0 bounds.
