(** Rank certificates for polynomial MLPs.
    Python twin: certify/checker/kernel.py, section "rank"; Lean twin: lean/NNCert/Rank.lean.
    Lower bound: the kernel recomputes the minor [J[rows, cols] mod p] of the Jacobian of
    [theta -> (f_theta(x_s))_s] by forward mode and checks [J[rows, cols] * inv = I mod p].
    Upper bound at theta: integer vectors whose directional derivative of [f] vanishes
    exactly on the unisolvent lattice [{x in N^d0 : |x| <= D}], independent by a minor mod p. *)
From Coq Require Import ZArith List Bool Uint63.
From NNCert Require Import Lists Arith Net.
Import ListNotations.
Open Scope Z_scope.

(** Entry [j] of a list of residues, [0] past the end (Coq-only: [nth_z] on [int]). *)
Fixpoint nth_int (xs : list int) (j : nat) : int :=
  match xs, j with
  | [], _ => 0%uint63
  | x :: _, O => x
  | _ :: xs', S j' => nth_int xs' j'
  end.

(** Every residue is zero (Coq-only helper of [is_unit_row]). *)
Fixpoint all_zero_int (xs : list int) : bool :=
  match xs with
  | [] => true
  | x :: xs' => PrimInt63.eqb x 0 && all_zero_int xs'
  end.

(** [row = e_k]: 1 at index [k], 0 elsewhere, and [k < length row]. *)
Fixpoint is_unit_row (k : nat) (row : list int) {struct row} : bool :=
  match row with
  | [] => false
  | x :: row' =>
      match k with
      | O => PrimInt63.eqb x 1 && all_zero_int row'
      | S k' => PrimInt63.eqb x 0 && is_unit_row k' row'
      end
  end.

(** [d f_theta(x_s)[k] / d theta_c mod p] for [row = (s, k)]: one forward-mode pass. *)
Definition jac_entry_mod (p : Z) (widths : list nat) (acts_m : list (list int)) (bias : bool)
    (th_m : list int) (samples : list (list Z)) (row : nat * nat) (c : nat) : Z :=
  let ar := arith_mod (Uint63.of_Z p) in
  let x := ints_mod p (nth_row samples (fst row)) in
  let out := net_eval ar widths acts_m bias th_m (unit_vec ar (length th_m) c) x
               (zeros ar (length x)) in
  Uint63.to_Z (nth_int (snd out) (snd row)).

(** The minor [J[rows, cols] mod p] of the sample Jacobian. *)
Definition jac_minor (p : Z) (widths : list nat) (acts_m : list (list int)) (bias : bool)
    (th_m : list int) (samples : list (list Z)) (rows : list (nat * nat)) (cols : list nat)
    : list (list Z) :=
  map (fun r => map (fun c => jac_entry_mod p widths acts_m bias th_m samples r c) cols) rows.

(** [z * r + acc mod p], to the shorter length. *)
Fixpoint add_scaled_mod (p : int) (z : int) (r acc : list int) : list int :=
  match r, acc with
  | x :: r', y :: acc' =>
      PrimInt63.mod (PrimInt63.add (PrimInt63.mul z x) y) p :: add_scaled_mod p z r' acc'
  | _, _ => []
  end.

(** [sum_k zs[k] * rows[k] mod p], a row of length [m]. *)
Fixpoint combo_mod (p : int) (m : nat) (zs : list int) (rows : list (list int)) : list int :=
  match zs, rows with
  | z :: zs', r :: rows' => add_scaled_mod p z r (combo_mod p m zs' rows')
  | _, _ => zeros (arith_mod p) m
  end.

(** Row [i + j] of [M] times [V] is [e_(i+j)] mod p, for every row [j] of [M]. *)
Fixpoint identity_rows (p : int) (r : nat) (M V : list (list int)) (i : nat) : bool :=
  match M with
  | [] => true
  | row :: M' => is_unit_row i (combo_mod p r row V) && identity_rows p r M' V (S i)
  end.

(** Every entry reduced mod p. *)
Definition reduce_rows (p : Z) (M : list (list Z)) : list (list int) :=
  map (ints_mod p) M.

(** Every residue literal reduced mod p. The witness inverses are shipped as primitive
    integer literals (they elaborate ~8x faster than [Z] literals); the Python and Lean twins
    reduce them with [reduce_rows] like every other matrix. *)
Definition reduce_int_rows (p : int) (V : list (list int)) : list (list int) :=
  map (map (fun v => PrimInt63.mod v p)) V.

(** [M] and [V] are [r x r] and [M * V = I (mod p)]; then [det M] is a unit mod p. *)
Definition check_inverse (p : Z) (r : nat) (M : list (list Z)) (V : list (list int)) : bool :=
  Nat.eqb (length M) r && rows_len r M && Nat.eqb (length V) r && rows_len r V &&
  identity_rows (Uint63.of_Z p) r (reduce_rows p M) (reduce_int_rows (Uint63.of_Z p) V) O.

(** Every row label [(s, k)] has [s < m] and [k < dout]. *)
Fixpoint rows_in_range (m dout : nat) (rows : list (nat * nat)) : bool :=
  match rows with
  | [] => true
  | r :: rows' => Nat.ltb (fst r) m && Nat.ltb (snd r) dout && rows_in_range m dout rows'
  end.

(** What the claim is about: the network and its parameter point. *)
Record rank_instance := {
  widths : list nat;
  acts : list (list (Z * Z));
  bias : bool;
  theta : list (Z * Z) }.

(** Lower-bound witness: prime, samples, inverses of denominators, minor and its inverse. *)
Record lower_witness := {
  lw_p : Z;
  lw_samples : list (list Z);
  lw_theta_inv : list Z;
  lw_acts_inv : list (list Z);
  lw_rows : list (nat * nat);
  lw_cols : list nat;
  lw_inv : list (list int) }.

(** Upper-bound witness: integer kernel vectors and an independence minor mod p. *)
Record upper_witness := {
  uw_p : Z;
  uw_tangents : list (list Z);
  uw_cols : list nat;
  uw_inv : list (list int) }.

(** rank of the Jacobian of [theta -> (f_theta(x_s))_s] at [theta] is [>= r] over Q. *)
Definition check_rank_lower (inst : rank_instance) (w : lower_witness) (r : nat) : bool :=
  let p := lw_p w in
  shape_ok (widths inst) (acts inst) (bias inst) (theta inst) (lw_samples w) &&
  p_ok p &&
  rats_inv_ok p (theta inst) (lw_theta_inv w) &&
  acts_inv_ok p (acts inst) (lw_acts_inv w) &&
  Nat.eqb (length (lw_rows w)) r &&
  Nat.eqb (length (lw_cols w)) r &&
  rows_in_range (length (lw_samples w)) (last_width (widths inst)) (lw_rows w) &&
  all_lt (length (theta inst)) (lw_cols w) &&
  check_inverse p r
    (jac_minor p (widths inst) (acts_mod p (acts inst) (lw_acts_inv w)) (bias inst)
       (rats_mod p (theta inst) (lw_theta_inv w)) (lw_samples w) (lw_rows w) (lw_cols w))
    (lw_inv w).

(** [d/ds f_(theta + s t)(x) = 0] exactly (over Q) at every [x] in [pts]. *)
Fixpoint tangent_vanishes (inst : rank_instance) (pts : list (list Z)) (t : list Z) : bool :=
  match pts with
  | [] => true
  | x :: pts' =>
      all_zero_q (snd (net_eval arith_q (widths inst) (acts inst) (bias inst) (theta inst)
                         (ints_q t) (ints_q x) (zeros arith_q (first_width (widths inst))))) &&
      tangent_vanishes inst pts' t
  end.

(** [tangent_vanishes] for every tangent. *)
Fixpoint tangents_vanish (inst : rank_instance) (pts : list (list Z)) (ts : list (list Z))
  : bool :=
  match ts with
  | [] => true
  | t :: ts' => tangent_vanishes inst pts t && tangents_vanish inst pts ts'
  end.

(** The columns [cols] of every row. *)
Definition col_minor (M : list (list Z)) (cols : list nat) : list (list Z) :=
  map (fun row => map (fun c => nth_z row c) cols) M.

(** The [s] tangents are independent kernel vectors of [d(theta -> f_theta)] at [theta],
    so its rank at [theta] is [<= u = #params - s]. *)
Definition check_rank_upper (inst : rank_instance) (w : upper_witness) (u : nat) : bool :=
  let n := length (theta inst) in
  let s := length (uw_tangents w) in
  shape_ok (widths inst) (acts inst) (bias inst) (theta inst) [] &&
  rats_pos (theta inst) &&
  acts_pos (acts inst) &&
  p_ok (uw_p w) &&
  Nat.eqb (u + s) n &&
  rows_len n (uw_tangents w) &&
  tangents_vanish inst (lattice (first_width (widths inst)) (degree_bound (acts inst)))
    (uw_tangents w) &&
  Nat.eqb (length (uw_cols w)) s &&
  all_lt n (uw_cols w) &&
  check_inverse (uw_p w) s (col_minor (uw_tangents w) (uw_cols w)) (uw_inv w).
